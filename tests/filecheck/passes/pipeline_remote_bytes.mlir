// verify-pipeline on a hand-over between CTAs of a cluster: the bytes a remote arrive.expect_tx posts are the
// nvvm.st.async words of its phase, stored before or after the post, to the peer's barrier however nvvm.mapa made
// it (here mapped twice) -- 128 threads x 2 stores x 16 bytes. Accepted as written.
// RUN: mmatom-opt %s -p verify-pipeline | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  // CHECK-LABEL: llvm.func @post_then_store
  llvm.func @post_then_store(%w: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>, nvvm.cluster_dim = array<i32: 2, 1, 1>, mma.shared_bytes = 4104 : i32} {
    %buf = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %bar = llvm.getelementptr %buf[4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %one = arith.constant 1 : i32
    %bytes = arith.constant 4096 : i32
    // CHECK: nvvm.mbarrier.arrive.expect_tx
    %posted_to = nvvm.mapa %bar, %one : !llvm.ptr<3> -> !llvm.ptr<7>
    nvvm.mbarrier.arrive.expect_tx %posted_to, %bytes : !llvm.ptr<7>, i32
    %peer_buf = nvvm.mapa %buf, %one : !llvm.ptr<3> -> !llvm.ptr<7>
    %stored_to = nvvm.mapa %bar, %one : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK-COUNT-2: nvvm.st.async
    nvvm.st.async %peer_buf, %stored_to, %w, %w, %w, %w : !llvm.ptr<7>, !llvm.ptr<7>, i32, i32, i32, i32
    nvvm.st.async %peer_buf, %stored_to, %w, %w, %w, %w : !llvm.ptr<7>, !llvm.ptr<7>, i32, i32, i32, i32
    llvm.return
  }
}

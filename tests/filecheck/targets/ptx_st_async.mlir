// A hand-over between CTAs of a cluster in PTX (split-K in a cluster, kernels/gemm/cluster_sums.py): st.async of
// four words into a peer's shared memory counted on the peer's barrier, the peer's bytes posted by a remote
// arrive.expect_tx released at cluster scope, and the wait that acquires them at cluster scope. st.async needs
// PTX ISA 8.1.
// RUN: mmatom-opt %s -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @hand_over(%w: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>, nvvm.cluster_dim = array<i32: 2, 1, 1>, mma.shared_bytes = 32 : i32} {
    %buf = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %c16 = arith.constant 16 : i32
    %bar = llvm.getelementptr %buf[16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %one = arith.constant 1 : i32
    %peer_buf = nvvm.mapa %buf, %one : !llvm.ptr<3> -> !llvm.ptr<7>
    %peer_bar = nvvm.mapa %bar, %one : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK: .version 8.1
    // CHECK-LABEL: .entry hand_over(
    // CHECK: mapa.shared::cluster.u64 [[BUF:%rd[0-9]+]],
    // CHECK: mapa.shared::cluster.u64 [[BAR:%rd[0-9]+]],
    // CHECK: st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [[[BUF]]], {[[W:%r[0-9]+]], [[W]], [[W]], [[W]]}, [[[BAR]]];
    nvvm.st.async %peer_buf, %peer_bar, %w, %w, %w, %w : !llvm.ptr<7>, !llvm.ptr<7>, i32, i32, i32, i32
    // CHECK: mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [[[BAR]]], 16;
    nvvm.mbarrier.arrive.expect_tx %peer_bar, %c16 : !llvm.ptr<7>, i32
    // CHECK: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
    %ticks = arith.constant 1000 : i32
    %zero = arith.constant 0 : i32
    nvvm.mbarrier.try_wait.parity %bar, %zero, %ticks {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32, i32
    llvm.return
  }
}

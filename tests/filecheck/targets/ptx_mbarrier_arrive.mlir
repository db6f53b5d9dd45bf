// mbarrier arrivals in PTX: a local one, a remote one (a peer CTA's barrier through mapa) with CTA-scope release
// -- what a consumer that only finished reading a stage needs, CUTLASS's form -- and one that releases at
// cluster scope (ptxas fences the GPU's memory before it: for a signal that publishes this thread's writes).
// RUN: mmatom-opt %s -t ptx | filecheck %s

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<0 x i8>
  llvm.func @arrivals() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>, nvvm.cluster_dim = array<i32: 2, 1, 1>, mma.shared_bytes = 8 : i32} {
    %bar = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK-LABEL: .entry arrivals(
    // CHECK: mov.u64 [[BAR:%rd[0-9]+]], smem;
    // CHECK: mapa.shared::cluster.u64 [[PEER:%rd[0-9]+]], [[BAR]],
    %peer = nvvm.mapa %bar, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK-NEXT: mbarrier.arrive.shared::cta.b64 _, [[[BAR]]];
    nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
    // CHECK-NEXT: mbarrier.arrive.shared::cluster.b64 _, [[[PEER]]];
    nvvm.mbarrier.arrive %peer : !llvm.ptr<7>
    // CHECK-NEXT: mbarrier.arrive.release.cluster.shared::cluster.b64 _, [[[PEER]]];
    nvvm.mbarrier.arrive %peer {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
    llvm.return
  }
}

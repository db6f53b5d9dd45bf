// The Hopper data path prints as it is read, in the custom and the generic form: the mma dialect's TMA ops and
// !mma.tensor_map, the nvvm dialect's (upstream's syntax) and named barriers.
// RUN: mmatom-opt %s | filecheck %s --match-full-lines
// RUN: mmatom-opt %s | mmatom-opt | filecheck %s --match-full-lines
// RUN: mmatom-opt %s --print-op-generic | mmatom-opt | filecheck %s --match-full-lines

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  // CHECK: builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  // CHECK-LABEL: llvm.func @k(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %d: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32, %mask: i16, %n: i32, %r0: i32, %r1: i32, %r2: i32, %r3: i32) attributes {nvvm.kernel} {
  llvm.func @k(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %d: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32, %mask: i16, %n: i32, %r0: i32, %r1: i32, %r2: i32, %r3: i32) attributes {nvvm.kernel} {
    // CHECK: %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128>
    %ma = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128>
    // CHECK: %md = mma.as_tensor_map %d : !mma.tensor_map<bf16, 64x64, sw128>
    %md = mma.as_tensor_map %d : !mma.tensor_map<bf16, 64x64, sw128>
    // CHECK: mma.tma_load %ma[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    mma.tma_load %ma[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    // CHECK: mma.tma_load %ma[%row, %col] into %dst barrier %bar multicast %mask as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    mma.tma_load %ma[%row, %col] into %dst barrier %bar multicast %mask as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    // CHECK: mma.tma_store %dst into %md[%row, %col] : !mma.tensor_map<bf16, 64x64, sw128>
    mma.tma_store %dst into %md[%row, %col] : !mma.tensor_map<bf16, 64x64, sw128>
    // CHECK: %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    // CHECK: mma.stmatrix_tile %acc[1 : i32] into %dst : !mma.frag<D, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    mma.stmatrix_tile %acc[1 : i32] into %dst : !mma.frag<D, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    // CHECK: nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
    nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
    // CHECK: nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    // CHECK: nvvm.fence.mbarrier.init
    nvvm.fence.mbarrier.init
    // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %a, %bar, box[%col, %row] : !llvm.ptr<3>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %a, %bar, box[%col, %row] : !llvm.ptr<3>, !llvm.ptr
    // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %a, %bar, box[%col, %row] multicast_mask = %mask : !llvm.ptr<3>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %a, %bar, box[%col, %row] multicast_mask = %mask : !llvm.ptr<3>, !llvm.ptr
    // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %d, %dst, box[%col, %row] : !llvm.ptr, !llvm.ptr<3>
    nvvm.cp.async.bulk.tensor.global.shared.cta %d, %dst, box[%col, %row] : !llvm.ptr, !llvm.ptr<3>
    // CHECK: nvvm.cp.async.bulk.commit.group
    nvvm.cp.async.bulk.commit.group
    // CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
    nvvm.cp.async.bulk.wait_group 1 {read}
    // CHECK: nvvm.cp.async.bulk.wait_group 0
    nvvm.cp.async.bulk.wait_group 0
    // CHECK: nvvm.prefetch tensormap, %a : !llvm.ptr
    nvvm.prefetch tensormap, %a : !llvm.ptr
    // CHECK: nvvm.setmaxregister increase 232
    nvvm.setmaxregister increase 232
    // CHECK: nvvm.setmaxregister decrease 40
    nvvm.setmaxregister decrease 40
    // CHECK: %p = nvvm.elect.sync -> i1
    %p = nvvm.elect.sync -> i1
    // CHECK: %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK: %peer = nvvm.mapa %bar, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    %peer = nvvm.mapa %bar, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK: nvvm.mbarrier.arrive %peer : !llvm.ptr<7>
    nvvm.mbarrier.arrive %peer : !llvm.ptr<7>
    // CHECK: nvvm.mbarrier.arrive %peer {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
    nvvm.mbarrier.arrive %peer {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
    // CHECK: nvvm.st.async %peer, %peer, %r0, %r1, %r2, %r3 : !llvm.ptr<7>, !llvm.ptr<7>, i32, i32, i32, i32
    nvvm.st.async %peer, %peer, %r0, %r1, %r2, %r3 : !llvm.ptr<7>, !llvm.ptr<7>, i32, i32, i32, i32
    // CHECK: nvvm.mbarrier.arrive.expect_tx %peer, %n : !llvm.ptr<7>, i32
    nvvm.mbarrier.arrive.expect_tx %peer, %n : !llvm.ptr<7>, i32
    // CHECK: nvvm.cluster.arrive {aligned}
    nvvm.cluster.arrive {aligned}
    // CHECK: nvvm.cluster.wait
    nvvm.cluster.wait
    // CHECK: nvvm.stmatrix %dst, %r0, %r1, %r2, %r3 {layout = #nvvm.mma_layout<row>} : !llvm.ptr<3>, i32, i32, i32, i32
    nvvm.stmatrix %dst, %r0, %r1, %r2, %r3 {layout = #nvvm.mma_layout<row>} : !llvm.ptr<3>, i32, i32, i32, i32
    // CHECK: nvvm.stmatrix %dst, %r0 {layout = #nvvm.mma_layout<col>} : !llvm.ptr<3>, i32
    nvvm.stmatrix %dst, %r0 {layout = #nvvm.mma_layout<col>} : !llvm.ptr<3>, i32
    // CHECK: %id = arith.constant 1 : i32
    %id = arith.constant 1 : i32
    // CHECK: %nt = arith.constant 128 : i32
    %nt = arith.constant 128 : i32
    // CHECK: nvvm.barrier id = %id number_of_threads = %nt
    nvvm.barrier id = %id number_of_threads = %nt
    // CHECK: nvvm.barrier id = %id
    nvvm.barrier id = %id
    // CHECK: nvvm.barrier
    nvvm.barrier
    // CHECK: nvvm.barrier.arrive id = %id number_of_threads = %nt
    nvvm.barrier.arrive id = %id number_of_threads = %nt
    // CHECK: nvvm.barrier.arrive number_of_threads = %nt
    nvvm.barrier.arrive number_of_threads = %nt
    // CHECK: %t0 = "test.op"() : () -> !mma.tensor_map<e4m3, 256x128, sw128>
    %t0 = "test.op"() : () -> !mma.tensor_map<e4m3, 256x128, sw128>
    // CHECK: %t1 = "test.op"() : () -> !mma.tensor_map<f32, 64x8, sw32>
    %t1 = "test.op"() : () -> !mma.tensor_map<f32, 64x8, sw32>
    // CHECK: %t2 = "test.op"() : () -> !mma.tensor_map<f16, 1x32, sw64>
    %t2 = "test.op"() : () -> !mma.tensor_map<f16, 1x32, sw64>
    // CHECK: %t3 = "test.op"() : () -> !mma.tensor_map<s8, 256x16, none>
    %t3 = "test.op"() : () -> !mma.tensor_map<s8, 256x16, none>
    // CHECK: llvm.return
    llvm.return
  }
}

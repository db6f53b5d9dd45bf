// A whole tcgen05 kernel: mbarrier, TMEM allocation by warp 0 through the SMEM slot, SM100 SMEM
// descriptors (bits 46-48 = 0b001), the MMA and its commit issued by thread 0 with the instruction
// descriptor packed from the atom (0x08100010 = 135266320: D f32, A/B f16 K-major, N 64, M 128), the
// mbarrier wait, .32x32b loads per warp (lane offset 32w << 16), dealloc after fence/barrier/fence,
// relinquish. Then the PTX instructions. (ptxas-validated only: no SM100 GPU here.)
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s -p lower-mma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  llvm.mlir.global external @tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global external @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i8>
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k(%pd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %sa = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
    %sb = mma.make_desc %smem : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
    %slot = llvm.mlir.addressof @tmem_slot : !llvm.ptr<3>
    %mbar = llvm.mlir.addressof @mbar : !llvm.ptr<3>
    %zero = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %t = mma.tmem_alloc %slot cols(64) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
    mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
    mma.tcgen05_commit %mbar cta_group(1) : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %mbar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.tcgen05.fence <after>
    %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f32, "(128,64):(1,128)">
    nvvm.tcgen05.wait <load>
    mma.store_fragment %d, %pd layout("(128,64):(64,1)") : !mma.frag<D, f32, "(128,64):(1,128)">, !llvm.ptr<1>
    mma.tmem_dealloc %t cta_group(1) : !mma.tmem<f32, 128x64>
    mma.tmem_relinquish cta_group(1)
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @k(
// SM100 SMEM descriptors: the 18-bit byte address >> 4, or'd with SBO (16 << 32) and the version bits 46-48 = 0b001
// CHECK:      [[SMEM:%.+]] = llvm.mlir.addressof @smem
// CHECK:      [[A_ADDR:%.+]] = llvm.ptrtoint [[SMEM]]
// CHECK:      [[A_MASK:%.+]] = arith.constant 262143 : i64
// CHECK-NEXT: [[A_LOW:%.+]] = arith.andi [[A_ADDR]], [[A_MASK]]
// CHECK-NEXT: [[FOUR:%.+]] = arith.constant 4 : i64
// CHECK-NEXT: [[A_SHR:%.+]] = arith.shrui [[A_LOW]], [[FOUR]]
// CHECK-NEXT: [[A_BITS:%.+]] = arith.constant 70437464178688 : i64
// CHECK-NEXT: [[DESC_A:%.+]] = arith.ori [[A_SHR]], [[A_BITS]]
// CHECK:      [[DESC_B:%.+]] = arith.ori {{%.+}}, {{%.+}} : i64
// CHECK:      [[SLOT:%.+]] = llvm.mlir.addressof @tmem_slot
// CHECK:      [[MBAR:%.+]] = llvm.mlir.addressof @mbar
// CHECK:      [[ZERO:%.+]] = arith.constant 0 : i32
// CHECK:      [[TICKS:%.+]] = arith.constant 10000000 : i32
// warp 0 allocates 64 columns into the SMEM slot; everyone reads the TMEM address after the barrier
// CHECK:      [[TID0:%.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: [[WARP:%.+]] = arith.constant 32 : i32
// CHECK-NEXT: [[IS_WARP0:%.+]] = arith.cmpi ult, [[TID0]], [[WARP]]
// CHECK-NEXT: scf.if [[IS_WARP0]] {
// CHECK-NEXT: [[COLS:%.+]] = arith.constant 64 : i32
// CHECK-NEXT: nvvm.tcgen05.alloc [[SLOT]], [[COLS]] {group = #nvvm.cta_group<cta_1>}
// CHECK:      nvvm.barrier
// CHECK-NEXT: [[TADDR:%.+]] = llvm.load [[SLOT]] : !llvm.ptr<3> -> i32
// CHECK-NEXT: [[TMEM:%.+]] = llvm.inttoptr [[TADDR]] : i32 to !llvm.ptr<6>
// thread 0 issues the MMA (instruction descriptor from the atom, accumulate false) and its commit
// CHECK:      [[TID1:%.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: [[ONE:%.+]] = arith.constant 1 : i32
// CHECK-NEXT: [[IS_T0:%.+]] = arith.cmpi ult, [[TID1]], [[ONE]]
// CHECK-NEXT: scf.if [[IS_T0]] {
// CHECK-NEXT: [[IDESC:%.+]] = arith.constant 135266320 : i32
// CHECK-NEXT: [[ACC:%.+]] = arith.constant false
// CHECK-NEXT: nvvm.tcgen05.mma [[TMEM]], [[DESC_A]], [[DESC_B]], [[IDESC]], [[ACC]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
// CHECK:      [[TID2:%.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: [[ONE2:%.+]] = arith.constant 1 : i32
// CHECK-NEXT: [[IS_T0_2:%.+]] = arith.cmpi ult, [[TID2]], [[ONE2]]
// CHECK-NEXT: scf.if [[IS_T0_2]] {
// CHECK-NEXT: nvvm.tcgen05.commit [[MBAR]] {group = #nvvm.cta_group<cta_1>}
// CHECK:      nvvm.mbarrier.try_wait.parity [[MBAR]], [[ZERO]], [[TICKS]]
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// .32x32b load: warp w of the warpgroup reads TMEM lanes 32w.. (lane offset (w & 3) << 21 = 32w << 16)
// CHECK-NEXT: [[TID3:%.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: [[FIVE:%.+]] = arith.constant 5 : i32
// CHECK-NEXT: [[W:%.+]] = arith.shrui [[TID3]], [[FIVE]]
// CHECK-NEXT: [[THREE:%.+]] = arith.constant 3 : i32
// CHECK-NEXT: [[W4:%.+]] = arith.andi [[W]], [[THREE]]
// CHECK-NEXT: [[SHIFT:%.+]] = arith.constant 21 : i32
// CHECK-NEXT: [[LANE_OFF:%.+]] = arith.shli [[W4]], [[SHIFT]]
// CHECK-NEXT: [[TBASE:%.+]] = llvm.ptrtoint [[TMEM]] : !llvm.ptr<6> to i32
// CHECK-NEXT: [[TROW:%.+]] = arith.addi [[TBASE]], [[LANE_OFF]]
// CHECK-NEXT: [[TPTR:%.+]] = llvm.inttoptr [[TROW]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: [[VEC:%.+]] = nvvm.tcgen05.ld [[TPTR]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<64xi32>
// the 64 registers, in order: element i of the vector is the fragment's value i
// CHECK-NEXT: [[I0:%.+]] = arith.constant 0 : i32
// CHECK-NEXT: [[E0:%.+]] = llvm.extractelement [[VEC]]{{\[}}[[I0]] : i32]
// CHECK-NEXT: [[D0:%.+]] = arith.bitcast [[E0]] : i32 to f32
// CHECK-COUNT-62: llvm.extractelement [[VEC]]
// CHECK:      [[I63:%.+]] = arith.constant 63 : i32
// CHECK-NEXT: [[E63:%.+]] = llvm.extractelement [[VEC]]{{\[}}[[I63]] : i32]
// CHECK-NEXT: [[D63:%.+]] = arith.bitcast [[E63]] : i32 to f32
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// thread t stores row t (tid & 127) of the row-major 128x64 f32 output: value i at byte (64 t + i) * 4
// CHECK-NEXT: [[TID4:%.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: [[M127:%.+]] = arith.constant 127 : i32
// CHECK-NEXT: {{%.+}} = arith.andi [[TID4]], [[M127]]
// CHECK:      [[SIX:%.+]] = arith.constant 6 : i32
// CHECK-NEXT: [[ROW_ELT:%.+]] = arith.shli {{%.+}}, [[SIX]]
// CHECK-NEXT: [[TWO:%.+]] = arith.constant 2 : i32
// CHECK-NEXT: [[ROW_BYTE:%.+]] = arith.shli [[ROW_ELT]], [[TWO]]
// CHECK-NEXT: [[OFF0:%.+]] = arith.extui [[ROW_BYTE]]
// CHECK-NEXT: [[P0:%.+]] = llvm.getelementptr %pd{{\[}}[[OFF0]]]
// CHECK-NEXT: llvm.store [[D0]], [[P0]] : f32, !llvm.ptr<1>
// CHECK-COUNT-62: llvm.store
// CHECK:      [[C63:%.+]] = arith.constant 63 : i32
// CHECK-NEXT: [[ELT63:%.+]] = arith.addi [[ROW_ELT]], [[C63]]
// CHECK-NEXT: [[BYTE63:%.+]] = arith.shli [[ELT63]], [[TWO]]
// CHECK-NEXT: [[OFF63:%.+]] = arith.extui [[BYTE63]]
// CHECK-NEXT: [[P63:%.+]] = llvm.getelementptr %pd{{\[}}[[OFF63]]]
// CHECK-NEXT: llvm.store [[D63]], [[P63]] : f32, !llvm.ptr<1>
// dealloc by warp 0 after fence / barrier / fence, then relinquish
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: nvvm.barrier
// CHECK:      scf.if
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: [[COLS2:%.+]] = arith.constant 64 : i32
// CHECK-NEXT: nvvm.tcgen05.dealloc [[TMEM]], [[COLS2]] {group = #nvvm.cta_group<cta_1>}
// CHECK:      scf.if
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_1>}
// CHECK-NOT:  nvvm.tcgen05
// CHECK:      llvm.return

// PTX:        .version 8.6
// PTX:        .target sm_100a
// PTX-LABEL:  .entry k(
// PTX:        tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 {{\[}}[[SLOT:%rd[0-9]+]]], 64;
// PTX:        bar.sync 0;
// PTX-NEXT:   ld.shared.b32 [[TMEM:%r[0-9]+]], {{\[}}[[SLOT]]];
// PTX:        mov.b32 [[IDESC:%r[0-9]+]], 135266320;
// PTX-NEXT:   setp.ne.u32 [[ACC:%p[0-9]+]], 0, 0;
// PTX-NEXT:   tcgen05.mma.cta_group::1.kind::f16 {{\[}}[[TMEM]]], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[IDESC]], [[ACC]];
// PTX:        tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 {{\[}}[[MBAR:%rd[0-9]+]]];
// the parity wait loops until the phase completes
// PTX:        [[WAIT:\$L_mbar_wait_[0-9]+]]:
// PTX-NEXT:   mbarrier.try_wait.parity.shared::cta.b64 [[DONE:%p[0-9]+]], {{\[}}[[MBAR]]], {{%r[0-9]+}}, {{%r[0-9]+}};
// PTX-NEXT:   @![[DONE]] bra [[WAIT]];
// PTX-NEXT:   tcgen05.fence::after_thread_sync;
// PTX:        add.s32 [[TROW:%r[0-9]+]], [[TMEM]], {{%r[0-9]+}};
// PTX-NEXT:   tcgen05.ld.sync.aligned.32x32b.x64.b32 {{\{}}{{(%r[0-9]+, ){63}%r[0-9]+}}}, {{\[}}[[TROW]]];
// PTX:        tcgen05.wait::ld.sync.aligned;
// PTX:        tcgen05.fence::before_thread_sync;
// PTX-NEXT:   bar.sync 0;
// PTX:        tcgen05.fence::after_thread_sync;
// PTX:        tcgen05.dealloc.cta_group::1.sync.aligned.b32 [[TMEM]], 64;
// PTX:        tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;

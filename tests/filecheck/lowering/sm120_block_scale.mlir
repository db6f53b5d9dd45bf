// SM120 warp-level atoms: a block-scaled mxf4nvf4 4X atom (A/B packed e2m1, one
// .b32 scale register per lane for SFA and SFB, byte-id/thread-id as i16 immediates) becomes upstream's
// nvvm.mma.block_scale; dense kind::f8f6f4 (fp4/fp6 one per byte, in bits [5:2] / [5:0]) becomes
// nvvm.inline_ptx, since upstream's nvvm.mma.sync has no kind. Then the PTX lines of both atoms.
// RUN: mmatom-opt %s -p lower-mma-to-nvvm | filecheck %s
// RUN: mmatom-opt %s -p lower-mma-to-nvvm -t ptx | filecheck %s --check-prefix=PTX

builtin.module attributes {mma.target = #mma.target<sm_120a>} {
  llvm.func @block_scaled(%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %pc: !llvm.ptr<1>, %pd: !llvm.ptr<1>, %psfa: !llvm.ptr<1>, %psfb: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %a = mma.load_fragment %pa layout("(16,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<A, e2m1, "((4,8),(8,2,2)):((128,1),(16,8,512))">
    %b = mma.load_fragment %pb layout("(8,64):(64,1)") : !llvm.ptr<1> -> !mma.frag<B, e2m1, "((4,8),(8,2)):((64,1),(8,256))">
    %c = mma.load_fragment %pc layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %sfa = mma.load_fragment %psfa layout("(16,4):(4,1)") : !llvm.ptr<1> -> !mma.frag<SFA, ue4m3, "((2,2,8),(4)):((8,0,1),(16))">
    %sfb = mma.load_fragment %psfb layout("(8,4):(4,1)") : !llvm.ptr<1> -> !mma.frag<SFB, ue4m3, "((4,8),(4)):((0,1),(8))">
    %d = mma.block_scale <m16n8k64> mxf4nvf4 "4X" %a, %b, %c, scales(%sfa, %sfb) {byte_id = 0 : i32, thread_id_a = 0 : i32, thread_id_b = 0 : i32} : !mma.frag<A, e2m1, "((4,8),(8,2,2)):((128,1),(16,8,512))">, !mma.frag<B, e2m1, "((4,8),(8,2)):((64,1),(8,256))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !mma.frag<SFA, ue4m3, "((2,2,8),(4)):((8,0,1),(16))">, !mma.frag<SFB, ue4m3, "((4,8),(4)):((0,1),(8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %d, %pd layout("(16,8):(8,1)") : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
  llvm.func @f8f6f4(%qa: !llvm.ptr<1>, %qb: !llvm.ptr<1>, %qc: !llvm.ptr<1>, %qd: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %fa = mma.load_fragment %qa layout("(16,32):(32,1)") : !llvm.ptr<1> -> !mma.frag<A, e2m1_c8, "((4,8),(4,2,2)):((64,1),(16,8,256))">
    %fb = mma.load_fragment %qb layout("(8,32):(32,1)") : !llvm.ptr<1> -> !mma.frag<B, e3m2_c8, "((4,8),(4,2)):((32,1),(8,128))">
    %fc = mma.load_fragment %qc layout("(16,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    %fd = mma.sync <m16n8k32> %fa, %fb, %fc {kind = #mma.kind<f8f6f4>} : !mma.frag<A, e2m1_c8, "((4,8),(4,2,2)):((64,1),(16,8,256))">, !mma.frag<B, e3m2_c8, "((4,8),(4,2)):((32,1),(8,128))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    mma.store_fragment %fd, %qd layout("(16,8):(8,1)") : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @block_scaled(
// the fragments' registers, loaded in order from their pointers: 4 A, 2 B, 4 C, one scale register each
// CHECK:      [[A0_P:%.+]] = llvm.getelementptr %pa{{\[}}
// CHECK-NEXT: [[A0:%.+]] = llvm.load [[A0_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[A1_P:%.+]] = llvm.getelementptr %pa{{\[}}
// CHECK-NEXT: [[A1:%.+]] = llvm.load [[A1_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[A2_P:%.+]] = llvm.getelementptr %pa{{\[}}
// CHECK-NEXT: [[A2:%.+]] = llvm.load [[A2_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[A3_P:%.+]] = llvm.getelementptr %pa{{\[}}
// CHECK-NEXT: [[A3:%.+]] = llvm.load [[A3_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[B0_P:%.+]] = llvm.getelementptr %pb{{\[}}
// CHECK-NEXT: [[B0:%.+]] = llvm.load [[B0_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[B1_P:%.+]] = llvm.getelementptr %pb{{\[}}
// CHECK-NEXT: [[B1:%.+]] = llvm.load [[B1_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[C0_P:%.+]] = llvm.getelementptr %pc{{\[}}
// CHECK-NEXT: [[C0:%.+]] = llvm.load [[C0_P]] : !llvm.ptr<1> -> f32
// CHECK:      [[C1_P:%.+]] = llvm.getelementptr %pc{{\[}}
// CHECK-NEXT: [[C1:%.+]] = llvm.load [[C1_P]] : !llvm.ptr<1> -> f32
// CHECK:      [[C2_P:%.+]] = llvm.getelementptr %pc{{\[}}
// CHECK-NEXT: [[C2:%.+]] = llvm.load [[C2_P]] : !llvm.ptr<1> -> f32
// CHECK:      [[C3_P:%.+]] = llvm.getelementptr %pc{{\[}}
// CHECK-NEXT: [[C3:%.+]] = llvm.load [[C3_P]] : !llvm.ptr<1> -> f32
// CHECK:      [[SFA_P:%.+]] = llvm.getelementptr %psfa{{\[}}
// CHECK-NEXT: [[SFA:%.+]] = llvm.load [[SFA_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[SFB_P:%.+]] = llvm.getelementptr %psfb{{\[}}
// CHECK-NEXT: [[SFB:%.+]] = llvm.load [[SFB_P]] : !llvm.ptr<1> -> i32
// byte-id and thread-id selectors: i16 immediates (all 0 here)
// CHECK-NEXT: [[BYTE_A:%.+]] = arith.constant 0 : i16
// CHECK-NEXT: [[TID_A:%.+]] = arith.constant 0 : i16
// CHECK-NEXT: [[BYTE_B:%.+]] = arith.constant 0 : i16
// CHECK-NEXT: [[TID_B:%.+]] = arith.constant 0 : i16
// CHECK-NEXT: [[RES:%.+]] = nvvm.mma.block_scale A{{\[}}[[A0]], [[A1]], [[A2]], [[A3]]] B{{\[}}[[B0]], [[B1]]] C{{\[}}[[C0]], [[C1]], [[C2]], [[C3]]] scaleA{{\[}}[[SFA]], [[BYTE_A]], [[TID_A]]] scaleB{{\[}}[[SFB]], [[BYTE_B]], [[TID_B]]]
// CHECK-SAME: blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4nvf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x4>, shape = #nvvm.shape<m = 16, n = 8, k = 64>
// CHECK-SAME: -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: [[D0:%.+]] = llvm.extractvalue [[RES]][0]
// CHECK-NEXT: [[D1:%.+]] = llvm.extractvalue [[RES]][1]
// CHECK-NEXT: [[D2:%.+]] = llvm.extractvalue [[RES]][2]
// CHECK-NEXT: [[D3:%.+]] = llvm.extractvalue [[RES]][3]
// the four results stored in order
// CHECK:      [[D0_P:%.+]] = llvm.getelementptr %pd{{\[}}
// CHECK-NEXT: llvm.store [[D0]], [[D0_P]] : f32
// CHECK:      [[D1_P:%.+]] = llvm.getelementptr %pd{{\[}}
// CHECK-NEXT: llvm.store [[D1]], [[D1_P]] : f32
// CHECK:      [[D2_P:%.+]] = llvm.getelementptr %pd{{\[}}
// CHECK-NEXT: llvm.store [[D2]], [[D2_P]] : f32
// CHECK:      [[D3_P:%.+]] = llvm.getelementptr %pd{{\[}}
// CHECK-NEXT: llvm.store [[D3]], [[D3_P]] : f32
// CHECK:      llvm.return

// CHECK-LABEL: llvm.func @f8f6f4(
// dense kind::f8f6f4: inline PTX (upstream's nvvm.mma.sync has no kind), operands A, B, C in register order
// CHECK:      [[FA0_P:%.+]] = llvm.getelementptr %qa{{\[}}
// CHECK-NEXT: [[FA0:%.+]] = llvm.load [[FA0_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[FA1_P:%.+]] = llvm.getelementptr %qa{{\[}}
// CHECK-NEXT: [[FA1:%.+]] = llvm.load [[FA1_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[FA2_P:%.+]] = llvm.getelementptr %qa{{\[}}
// CHECK-NEXT: [[FA2:%.+]] = llvm.load [[FA2_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[FA3_P:%.+]] = llvm.getelementptr %qa{{\[}}
// CHECK-NEXT: [[FA3:%.+]] = llvm.load [[FA3_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[FB0_P:%.+]] = llvm.getelementptr %qb{{\[}}
// CHECK-NEXT: [[FB0:%.+]] = llvm.load [[FB0_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[FB1_P:%.+]] = llvm.getelementptr %qb{{\[}}
// CHECK-NEXT: [[FB1:%.+]] = llvm.load [[FB1_P]] : !llvm.ptr<1> -> i32
// CHECK:      [[FC0_P:%.+]] = llvm.getelementptr %qc{{\[}}
// CHECK-NEXT: [[FC0:%.+]] = llvm.load [[FC0_P]] : !llvm.ptr<1> -> f32
// CHECK:      [[FC1_P:%.+]] = llvm.getelementptr %qc{{\[}}
// CHECK-NEXT: [[FC1:%.+]] = llvm.load [[FC1_P]] : !llvm.ptr<1> -> f32
// CHECK:      [[FC2_P:%.+]] = llvm.getelementptr %qc{{\[}}
// CHECK-NEXT: [[FC2:%.+]] = llvm.load [[FC2_P]] : !llvm.ptr<1> -> f32
// CHECK:      [[FC3_P:%.+]] = llvm.getelementptr %qc{{\[}}
// CHECK-NEXT: [[FC3:%.+]] = llvm.load [[FC3_P]] : !llvm.ptr<1> -> f32
// CHECK-NEXT: [[FD0:%.+]], [[FD1:%.+]], [[FD2:%.+]], [[FD3:%.+]] = nvvm.inline_ptx "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};"
// CHECK-SAME: ro([[FA0]], [[FA1]], [[FA2]], [[FA3]], [[FB0]], [[FB1]], [[FC0]], [[FC1]], [[FC2]], [[FC3]] : i32, i32, i32, i32, i32, i32, f32, f32, f32, f32)
// CHECK-SAME: -> f32, f32, f32, f32
// CHECK:      [[FD0_P:%.+]] = llvm.getelementptr %qd{{\[}}
// CHECK-NEXT: llvm.store [[FD0]], [[FD0_P]] : f32
// CHECK:      [[FD1_P:%.+]] = llvm.getelementptr %qd{{\[}}
// CHECK-NEXT: llvm.store [[FD1]], [[FD1_P]] : f32
// CHECK:      [[FD2_P:%.+]] = llvm.getelementptr %qd{{\[}}
// CHECK-NEXT: llvm.store [[FD2]], [[FD2_P]] : f32
// CHECK:      [[FD3_P:%.+]] = llvm.getelementptr %qd{{\[}}
// CHECK-NEXT: llvm.store [[FD3]], [[FD3_P]] : f32
// CHECK:      llvm.return

// PTX:        .version 8.7
// PTX-NEXT:   .target sm_120a
// PTX-LABEL:  .entry block_scaled(
// PTX:        ld.global.b32 [[A0:%r[0-9]+]],
// PTX:        ld.global.b32 [[A1:%r[0-9]+]],
// PTX:        ld.global.b32 [[A2:%r[0-9]+]],
// PTX:        ld.global.b32 [[A3:%r[0-9]+]],
// PTX:        ld.global.b32 [[B0:%r[0-9]+]],
// PTX:        ld.global.b32 [[B1:%r[0-9]+]],
// PTX:        ld.global.f32 [[C0:%f[0-9]+]],
// PTX:        ld.global.f32 [[C1:%f[0-9]+]],
// PTX:        ld.global.f32 [[C2:%f[0-9]+]],
// PTX:        ld.global.f32 [[C3:%f[0-9]+]],
// PTX:        ld.global.b32 [[SFA:%r[0-9]+]],
// PTX:        ld.global.b32 [[SFB:%r[0-9]+]],
// PTX:        mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 {[[D0:%f[0-9]+]], [[D1:%f[0-9]+]], [[D2:%f[0-9]+]], [[D3:%f[0-9]+]]}, {[[A0]], [[A1]], [[A2]], [[A3]]}, {[[B0]], [[B1]]}, {[[C0]], [[C1]], [[C2]], [[C3]]}, [[SFA]], {0, 0}, [[SFB]], {0, 0};
// PTX:        st.global.f32 [{{%rd[0-9]+}}], [[D0]];
// PTX:        st.global.f32 [{{%rd[0-9]+}}], [[D1]];
// PTX:        st.global.f32 [{{%rd[0-9]+}}], [[D2]];
// PTX:        st.global.f32 [{{%rd[0-9]+}}], [[D3]];
// PTX-LABEL:  .entry f8f6f4(
// PTX:        ld.global.b32 [[A0:%r[0-9]+]],
// PTX:        ld.global.b32 [[A1:%r[0-9]+]],
// PTX:        ld.global.b32 [[A2:%r[0-9]+]],
// PTX:        ld.global.b32 [[A3:%r[0-9]+]],
// PTX:        ld.global.b32 [[B0:%r[0-9]+]],
// PTX:        ld.global.b32 [[B1:%r[0-9]+]],
// PTX:        ld.global.f32 [[C0:%f[0-9]+]],
// PTX:        ld.global.f32 [[C1:%f[0-9]+]],
// PTX:        ld.global.f32 [[C2:%f[0-9]+]],
// PTX:        ld.global.f32 [[C3:%f[0-9]+]],
// PTX:        mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32 {[[D0:%f[0-9]+]], [[D1:%f[0-9]+]], [[D2:%f[0-9]+]], [[D3:%f[0-9]+]]}, {[[A0]], [[A1]], [[A2]], [[A3]]}, {[[B0]], [[B1]]}, {[[C0]], [[C1]], [[C2]], [[C3]]};
// PTX:        st.global.f32 [{{%rd[0-9]+}}], [[D0]];
// PTX:        st.global.f32 [{{%rd[0-9]+}}], [[D1]];
// PTX:        st.global.f32 [{{%rd[0-9]+}}], [[D2]];
// PTX:        st.global.f32 [{{%rd[0-9]+}}], [[D3]];

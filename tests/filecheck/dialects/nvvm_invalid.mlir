// One case per nvvm-dialect diagnostic.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

llvm.func @mixed_group(%a: vector<2xf16>, %i: i32, %c: f32) {
  // expected-error@+1 {{nvvm.mma.sync: the A group mixes types}}
  %0 = "nvvm.mma.sync"(%a, %i, %a, %c, %c, %c, %c) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 8>, operandSegmentSizes = array<i32: 2, 1, 4>}> : (vector<2xf16>, i32, vector<2xf16>, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @mixed_result(%a: vector<2xf16>, %c: f32) {
  // expected-error@+1 {{nvvm.mma.sync: result struct elements must share one type}}
  %0 = nvvm.mma.sync A[%a, %a] B[%a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, i32)>
  llvm.return
}

// -----

llvm.func @bad_layout(%a: vector<2xf16>, %c: f32) {
  // expected-error@+1 {{'diag' is not one of row, col}}
  %0 = nvvm.mma.sync A[%a, %a] B[%a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<diag>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// The MMA ops read their atom (shape, types, qualifiers, immediates) and check it against the catalogue.

llvm.func @illegal_shape(%a: vector<2xf16>, %c: f32) {
  // expected-error@+1 {{'nvvm.mma.sync' op nvvm.mma.sync: mma.sync: shape=m16n8k12 is not legal; legal shape: m16n8k128, m16n8k16, m16n8k256, m16n8k32, m16n8k4, m16n8k64, m16n8k8, m8n8k128, m8n8k16, m8n8k32, m8n8k4}}
  %0 = nvvm.mma.sync A[%a, %a] B[%a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 12>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @illegal_type_mix(%a: vector<2xf16>, %c: f32, %h: vector<2xf16>) {
  // expected-error@+1 {{'nvvm.mma.sync' op nvvm.mma.sync: mma.sync: D/C types=f16/f32 is not legal for m16n8k16 f16; legal D/C types: f16/f16, f32/f32}}
  %0 = nvvm.mma.sync A[%a, %a, %a, %a] B[%a, %a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  llvm.return
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_75>} {
  llvm.func @target_lacks_atom(%a: vector<2xf16>, %c: f32) {
    // expected-error@+1 {{'nvvm.mma.sync' op nvvm.mma.sync: mma.sync: target sm_75 does not support mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32; it needs sm_80 or later}}
    %0 = nvvm.mma.sync A[%a, %a, %a, %a] B[%a, %a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    llvm.return
  }
}

// -----

llvm.func @register_count(%a: vector<2xf16>, %c: f32) {
  // expected-error@+1 {{'nvvm.mma.sync' op nvvm.mma.sync: A[...] has 2 registers; mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 takes 4}}
  %0 = nvvm.mma.sync A[%a, %a] B[%a, %a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @untyped_multiplicand(%i: i32) {
  // expected-error@+1 {{'nvvm.mma.sync' op nvvm.mma.sync: multiplicandAPtxType is required: A's registers of type i32 do not say the element type}}
  %0 = nvvm.mma.sync A[%i, %i] B[%i] C[%i, %i, %i, %i] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}

// -----

llvm.func @selector_not_constant(%a: vector<2xf16>, %c: f32, %e: i32, %sel: i32) {
  // expected-error@+1 {{'nvvm.mma.sp.sync' op nvvm.mma.sp.sync: the sparsity selector must be an arith.constant (PTX takes it as an immediate, and the atom is checked against it)}}
  %0 = nvvm.mma.sp.sync A[%a, %a] B[%a, %a] C[%c, %c, %c, %c] sparseMetadata[%e] selector[%sel] {shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @illegal_selector(%a: vector<2xf16>, %c: f32, %e: i32) {
  %sel = arith.constant 2 : i32
  // expected-error@+1 {{'nvvm.mma.sp.sync' op nvvm.mma.sp.sync: mma.sp: sparsity selector=2 is not legal for m16n8k32 f16 D/C f32/f32; sparsity selector must be one of 0, 1}}
  %0 = nvvm.mma.sp.sync A[%a, %a, %a, %a] B[%a, %a, %a, %a] C[%c, %c, %c, %c] sparseMetadata[%e] selector[%sel] {shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @byte_id_b(%a: i32, %c: f32, %sf: i32) {
  %zero = arith.constant 0 : i16
  %one = arith.constant 1 : i16
  // expected-error@+1 {{'nvvm.mma.block_scale' op nvvm.mma.block_scale: mma.sync block_scale: byte-id=1 is not legal for kind::mxf4nvf4 scale_vec::4X ue4m3 m16n8k64; byte-id must be 0}}
  %0 = nvvm.mma.block_scale A[%a, %a, %a, %a] B[%a, %a] C[%c, %c, %c, %c] scaleA[%sf, %zero, %zero] scaleB[%sf, %one, %zero] {blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4nvf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x4>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wgmma_illegal_n(%da: i64, %db: i64, %acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  // expected-error@+1 {{'nvvm.wgmma.mma_async' op nvvm.wgmma.mma_async: sm90 wgmma: N=12 is not legal for f16 -> f32; N must be a multiple of 8 in [8, 256]}}
  %0 = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 12, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wgmma_transposed_tf32(%da: i64, %db: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>) {
  // expected-error@+1 {{'nvvm.wgmma.mma_async' op nvvm.wgmma.mma_async: sm90 wgmma: A major (imm-trans-a)=mn is not legal for tf32 -> f32; legal A major (imm-trans-a): k}}
  %0 = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <col>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @tcgen05_target(%d: !llvm.ptr<6>, %a: i64, %b: i64, %acc: i1) {
    %idesc = arith.constant 135266320 : i32
    // expected-error@+1 {{'nvvm.tcgen05.mma' op nvvm.tcgen05.mma: sm100 tcgen05.mma: target sm_90a does not support tcgen05.mma.cta_group::1.kind::f16; it needs one of sm_100a, sm_100f, sm_103a, sm_103f, sm_110a, sm_110f}}
    nvvm.tcgen05.mma %d, %a, %b, %idesc, %acc {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
    llvm.return
  }
}

// -----

llvm.func @tcgen05_illegal_m(%d: !llvm.ptr<6>, %a: i64, %b: i64, %acc: i1) {
  // idesc: kind::f16, A/B f16, D f32, M = 48, N = 64
  %idesc = arith.constant 51380240 : i32
  // expected-error@+1 {{'nvvm.tcgen05.mma' op nvvm.tcgen05.mma: sm100 tcgen05.mma: M=48 is not legal}}
  nvvm.tcgen05.mma %d, %a, %b, %idesc, %acc {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  llvm.return
}

// -----

llvm.func @tcgen05_idesc_not_constant(%d: !llvm.ptr<6>, %a: i64, %b: i64, %idesc: i32, %acc: i1) {
  // expected-error@+1 {{'nvvm.tcgen05.mma' op nvvm.tcgen05.mma: the instruction descriptor must be an arith.constant}}
  nvvm.tcgen05.mma %d, %a, %b, %idesc, %acc {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  llvm.return
}

// -----

// nvvm.inline_ptx: the atom comes from its mma.atom attribute, never from the PTX text.

builtin.module attributes {mma.target = #mma.target<sm_90>} {
  llvm.func @inline_target(%a: i32, %c: f32) {
    // expected-error@+1 {{'nvvm.inline_ptx' op nvvm.inline_ptx: mma.sync: target sm_90 does not support mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32; it needs one of}}
    %0:4 = nvvm.inline_ptx "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};" ro(%a, %a, %a, %a, %a, %a, %c, %c, %c, %c : i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) {mma.atom = {family = "mma", shape = [16 : i64, 8 : i64, 32 : i64], kind = "f8f6f4", a = "e4m3", b = "e4m3", acc = ["f32", "f32"], layout = ["row", "col"], satfinite = false}} -> f32, f32, f32, f32
    llvm.return
  }
}

// -----

llvm.func @inline_atom_not_issued(%a: i32, %c: f32) {
  // expected-error@+1 {{'nvvm.inline_ptx' op nvvm.inline_ptx: mma.atom is mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32, which the PTX text does not issue}}
  %0:4 = nvvm.inline_ptx "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e5m2.e4m3.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};" ro(%a, %a, %a, %a, %a, %a, %c, %c, %c, %c : i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) {mma.atom = {family = "mma", shape = [16 : i64, 8 : i64, 32 : i64], kind = "f8f6f4", a = "e4m3", b = "e4m3", acc = ["f32", "f32"], layout = ["row", "col"], satfinite = false}} -> f32, f32, f32, f32
  llvm.return
}

// -----

llvm.func @inline_atom_unknown_dimension(%c: f32) {
  // expected-error@+1 {{'nvvm.inline_ptx' op nvvm.inline_ptx: mma.atom: swizzle is not a dimension of wgmma; its dimensions: sparse, a, b, d, m, n, k, satfinite, bitop, a_residency, trans_a, trans_b, scale_a, scale_b, selector}}
  %0 = nvvm.inline_ptx "mov.b32 $0, $1;" ro(%c : f32) {mma.atom = {family = "wgmma", swizzle = 128 : i64}} -> f32
  llvm.return
}

// -----

llvm.func @tcgen05_block_scaled_kind(%d: !llvm.ptr<6>, %a: i64, %b: i64, %acc: i1) {
  %idesc = arith.constant 135266320 : i32
  // expected-error@+1 {{'nvvm.tcgen05.mma' op nvvm.tcgen05.mma: kind mxf4 is not legal here; legal kinds: f16, tf32, f8f6f4, i8}}
  nvvm.tcgen05.mma %d, %a, %b, %idesc, %acc {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<mxf4>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  llvm.return
}

// -----

llvm.func @convert_pair_rounding(%c: f32) {
  // expected-error@+1 {{'nvvm.convert.f32x2.to.bf16x2' op nvvm.convert.f32x2.to.bf16x2: rounding mode rm is not legal; cvt.bf16x2.f32 rounds rn or rz}}
  %0 = nvvm.convert.f32x2.to.bf16x2 %c, %c {rnd = #nvvm.fp_rnd_mode<rm>} : vector<2xbf16>
  llvm.return
}

// -----

llvm.func @convert_pair_result(%c: f32) {
  // expected-error@+1 {{'nvvm.convert.f32x2.to.f16x2' op nvvm.convert.f32x2.to.f16x2: result type vector<2xbf16> is not legal; it is vector<2xf16>}}
  %0 = nvvm.convert.f32x2.to.f16x2 %c, %c {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
  llvm.return
}

// -----

llvm.func @convert_pair_relu(%c: f32) {
  // expected-error@+1 {{'nvvm.convert.f32x2.to.bf16x2' op nvvm.convert.f32x2.to.bf16x2: relu is a bool (true or false)}}
  %0 = nvvm.convert.f32x2.to.bf16x2 %c, %c {relu = 2 : i32, rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
  llvm.return
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_75>} {
  llvm.func @convert_pair_target(%c: f32) {
    // expected-error@+1 {{'nvvm.convert.f32x2.to.bf16x2' op nvvm.convert.f32x2.to.bf16x2: cvt.bf16x2.f32 needs sm_80 or later; the module targets sm_75}}
    %0 = nvvm.convert.f32x2.to.bf16x2 %c, %c {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
    llvm.return
  }
}

// -----

llvm.func @shfl_f64(%x: f64, %m: i32) {
  // expected-error@+1 {{nvvm.shfl.sync: value type f64 is not legal; shfl.sync moves i32 or f32}}
  %0 = nvvm.shfl.sync bfly %m, %x, %m, %m : f64 -> f64
  llvm.return
}

// -----

llvm.func @shfl_result(%x: f32, %m: i32) {
  // expected-error@+1 {{nvvm.shfl.sync: result type i32 is not the value's type f32}}
  %0 = nvvm.shfl.sync idx %m, %x, %m, %m : f32 -> i32
  llvm.return
}

// -----

llvm.func @shfl_kind(%x: f32, %m: i32) {
  // expected-error@+1 {{Expected `bfly`, `up`, `down`, or `idx`}}
  %0 = nvvm.shfl.sync xor %m, %x, %m, %m : f32 -> f32
  llvm.return
}

// -----

llvm.func @ex2_f16(%x: f16) {
  // expected-error@+1 {{nvvm.ex2: operand type f16 is not legal; it takes f32}}
  %0 = nvvm.ex2 %x {ftz = true} : f16
  llvm.return
}

// -----

llvm.func @rcp_f64(%x: f64) {
  // expected-error@+1 {{nvvm.rcp.approx.ftz.f: operand type f64 is not legal; it takes f32}}
  %0 = nvvm.rcp.approx.ftz.f %x : f64
  llvm.return
}

// -----

llvm.func @warp_sync_mask(%m: i64) {
  // expected-error@+1 {{nvvm.bar.warp.sync: member mask of type i64; an i32 (a bit per lane)}}
  nvvm.bar.warp.sync %m : i64
  llvm.return
}

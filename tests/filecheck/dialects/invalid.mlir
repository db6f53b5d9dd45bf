// RUN: mmatom-opt %s --split-input-file --verify-diagnostics
// One invalid case per verifier rule, with its exact diagnostic.

builtin.module attributes {mma.target = #mma.target<sm_75>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.sync' op mma.sync: target sm_75 does not support mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32; it needs sm_80 or later}}
  %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.sync' op mma.sync: D/C types=f16/f32 is not legal for m16n8k16 f16; legal D/C types: f16/f16, f32/f32}}
  %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f16, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.sync' op mma.sync: shape=m16n8k12 is not legal; legal shape: m16n8k128, m16n8k16, m16n8k256, m16n8k32, m16n8k4, m16n8k64, m16n8k8, m8n8k128, m8n8k16, m8n8k32, m8n8k4}}
  %d = mma.sync <m16n8k12> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.sync' op mma.sync: satfinite=yes is not legal for m16n8k16 f16 D/C f32/f32; legal satfinite: no}}
  %d = mma.sync <m16n8k16> %a, %b, %c satfinite : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.sync' op mma.sync: layouts=col/col is not legal for m16n8k16 f16 D/C f32/f32; legal layouts: row/col}}
  %d = mma.sync <m16n8k16> %a, %b, %c {layout_a = #mma.layout<col>} : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,128,8))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.sync' op mma.sync: operand A layout ((4,8),(2,2,2)):((32,1),(16,128,8)) is not the canonical TV layout ((4,8),(2,2,2)):((32,1),(16,8,128)) of mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32}}
  %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,128,8))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.sync' op mma.sync: operand A is a !mma.smem_desc (smem_desc); A must be in register (!mma.frag)}}
  %d = mma.sync <m16n8k16> %sa, %b, %c : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.sync' op mma.sync: operand B has a fragment of role A; expected role B}}
  %d = mma.sync <m16n8k16> %a, %a, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,4)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  %e = "test.op"() : () -> !mma.frag<E, u8, "((4,8),1):((1,4),0)">
  // expected-error@+1 {{'mma.sp' op mma.sp: sparsity selector=2 is not legal for m16n8k32 f16 D/C f32/f32; sparsity selector must be one of 0, 1}}
  %d = mma.sp <m16n8k32> %a, %b, %c, %e selector(2 : i64) : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,4)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !mma.frag<E, u8, "((4,8),1):((1,4),0)"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
  %wc = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
  // expected-error@+1 {{'mma.wgmma' op sm90 wgmma: N=63 is not legal for f16 -> f32; N must be a multiple of 8 in [8, 256]}}
  %d = mma.wgmma <m64n63k16> %sa, %sb, %wc : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
  %wc = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
  // expected-error@+1 {{'mma.wgmma' op sm90 wgmma: target sm_90 does not support wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16; it needs sm_90a}}
  %d = mma.wgmma <m64n64k16> %sa, %sb, %wc : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw64, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
  %wc = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
  // expected-error@+1 {{'mma.wgmma' op sm90 wgmma: operand B: descriptor swizzle 64b disagrees with the SMEM layout's Sw<3,4,3> (128b); the tensor core would read permuted data}}
  %d = mma.wgmma <m64n64k16> %sa, %sb, %wc : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, sw64, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
}

// -----

// an offset no descriptor can address (found by `mmatom.tools.fuzz --seed 41`: it overflowed numpy's int64)
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 18446744073709551615 o ((8,8),16):((64,512),1)">
  %wc = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
  // expected-error@+1 {{'mma.wgmma' op sm90 wgmma: operand B: SMEM layout Sw<3,4,3> o 18446744073709551615 o ((8,8),16):((64,512),1) reaches byte 36893488147419111324; a descriptor addresses shared memory below 262144 bytes (14 bits of 16-byte units)}}
  %d = mma.wgmma <m64n64k16> %sa, %sb, %wc : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 18446744073709551615 o ((8,8),16):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, none, "(64,16):(1,64)">
  %wc = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
  // expected-error@+1 {{'mma.wgmma' op sm90 wgmma: operand B: SMEM layout (64,16):(1,64) is not the canonical K-major none layout Sw<0,4,3> o 0 o ((8,8),(8,2)):((8,8),(1,512)) (LBO=1024, SBO=16 bytes)}}
  %d = mma.wgmma <m64n64k16> %sa, %sb, %wc : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "(64,16):(1,64)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, tf32, mn, none, "((4,16),(8,1)):((1,32),(4,0))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, tf32, k, none, "((8,8),(4,2)):((4,64),(1,32))">
  %wc = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
  // expected-error@+1 {{'mma.wgmma' op sm90 wgmma: A major (imm-trans-a)=mn is not legal for tf32 -> f32; legal A major (imm-trans-a): k}}
  %d = mma.wgmma <m64n64k8> %sa, %sb, %wc : !mma.smem_desc<A, tf32, mn, none, "((4,16),(8,1)):((1,32),(4,0))">, !mma.smem_desc<B, tf32, k, none, "((8,8),(4,2)):((4,64),(1,32))">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, s8, k, none, "((8,8),(16,2)):((16,256),(1,128))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, s8, k, none, "((8,8),(16,2)):((16,256),(1,128))">
  %wc = "test.op"() : () -> !mma.frag<C, s32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
  // expected-error@+1 {{'mma.wgmma' op sm90 wgmma: imm-scale-a=-1 is not legal for s8 -> s32; legal imm-scale-a: none}}
  %d = mma.wgmma <m64n64k32> %sa, %sb, %wc {scale_a = -1 : i32} : !mma.smem_desc<A, s8, k, none, "((8,8),(16,2)):((16,256),(1,128))">, !mma.smem_desc<B, s8, k, none, "((8,8),(16,2)):((16,256),(1,128))">, !mma.frag<C, s32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, s32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
  %t = "test.op"() : () -> !mma.tmem<f32, 128x256>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: target sm_90a does not support tcgen05.mma.cta_group::1.kind::f16; it needs one of sm_100a, sm_100f, sm_103a, sm_103f, sm_110a, sm_110f}}
  mma.tcgen05 <m128n256k16> f16 cta_group(1 : i32) %sa, %sb, %t : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.tmem<f32, 128x256>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
  %t = "test.op"() : () -> !mma.tmem<f32, 128x128>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: M=64 is not legal for cta_group::2 kind::f16; M must be one of 128, 256}}
  mma.tcgen05 <m64n128k16> f16 cta_group(2 : i32) %sa, %sb, %t : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x128>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, none, "((8,3),(8,2)):((8,128),(1,64))">
  %t = "test.op"() : () -> !mma.tmem<f32, 128x24>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: N=24 is not legal for cta_group::2 kind::f16; N must be a multiple of 16 in [16, 256]}}
  mma.tcgen05 <m128n24k16> f16 cta_group(2 : i32) %sa, %sb, %t : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,3),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x24>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, s8, k, none, "((8,16),(16,2)):((16,256),(1,128))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, s8, k, none, "((8,5),(16,2)):((16,256),(1,128))">
  %t = "test.op"() : () -> !mma.tmem<s32, 128x40>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: N=40 is not legal for cta_group::1 kind::i8; N must be one of 8..32 step 8, 48..256 step 16}}
  mma.tcgen05 <m128n40k32> i8 cta_group(1 : i32) %sa, %sb, %t : !mma.smem_desc<A, s8, k, none, "((8,16),(16,2)):((16,256),(1,128))">, !mma.smem_desc<B, s8, k, none, "((8,5),(16,2)):((16,256),(1,128))">, !mma.tmem<s32, 128x40>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, e2m1, k, none, "((8,16),(32,2)):((32,512),(1,256))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, e2m1, k, none, "((8,16),(32,2)):((32,512),(1,256))">
  %t = "test.op"() : () -> !mma.tmem<f32, 128x128>
  %sfa = "test.op"() : () -> !mma.tmem<ue4m3, 128x4>
  %sfb = "test.op"() : () -> !mma.tmem<ue4m3, 128x4>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: scale type=ue4m3 is not legal for cta_group::1 kind::mxf4 2X; legal scale type: ue8m0}}
  mma.tcgen05 <m128n128k64> mxf4 cta_group(1 : i32) %sa, %sb, %t scales(%sfa, %sfb : !mma.tmem<ue4m3, 128x4>, !mma.tmem<ue4m3, 128x4>) {scale_vec = #mma.scale_vec<"2X">} : !mma.smem_desc<A, e2m1, k, none, "((8,16),(32,2)):((32,512),(1,256))">, !mma.smem_desc<B, e2m1, k, none, "((8,16),(32,2)):((32,512),(1,256))">, !mma.tmem<f32, 128x128>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, e4m3, k, none, "((8,8),(16,2)):((16,256),(1,128))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, e4m3, k, none, "((8,16),(16,2)):((16,256),(1,128))">
  %t = "test.op"() : () -> !mma.tmem<f32, 128x128>
  %sfa = "test.op"() : () -> !mma.tmem<ue8m0, 128x4>
  %sfb = "test.op"() : () -> !mma.tmem<ue8m0, 128x4>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: M=64 is not legal for cta_group::1 kind::mxf8f6f4 1X; M must be 128}}
  mma.tcgen05 <m64n128k32> mxf8f6f4 cta_group(1 : i32) %sa, %sb, %t scales(%sfa, %sfb : !mma.tmem<ue8m0, 128x4>, !mma.tmem<ue8m0, 128x4>) {scale_vec = #mma.scale_vec<"1X">} : !mma.smem_desc<A, e4m3, k, none, "((8,8),(16,2)):((16,256),(1,128))">, !mma.smem_desc<B, e4m3, k, none, "((8,16),(16,2)):((16,256),(1,128))">, !mma.tmem<f32, 128x128>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100f>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, s8, k, none, "((8,16),(16,2)):((16,256),(1,128))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, s8, k, none, "((8,4),(16,2)):((16,256),(1,128))">
  %t = "test.op"() : () -> !mma.tmem<s32, 128x32>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: target sm_100f does not support tcgen05.mma.cta_group::1.kind::i8; it needs one of sm_100a, sm_110a}}
  mma.tcgen05 <m128n32k32> i8 cta_group(1 : i32) %sa, %sb, %t : !mma.smem_desc<A, s8, k, none, "((8,16),(16,2)):((16,256),(1,128))">, !mma.smem_desc<B, s8, k, none, "((8,4),(16,2)):((16,256),(1,128))">, !mma.tmem<s32, 128x32>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
  %t = "test.op"() : () -> !mma.tmem<f32, 128x64>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: operand D is a TMEM tile of 64 columns; N=128 needs 128}}
  mma.tcgen05 <m128n128k16> f16 cta_group(1 : i32) %sa, %sb, %t : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, tf32, k, sw128_base32b, "Sw<2,5,2> o 0 o ((8,16),8):((32,256),1)">
  %sb = "test.op"() : () -> !mma.smem_desc<B, tf32, k, none, "((8,16),(4,2)):((4,64),(1,32))">
  %t = "test.op"() : () -> !mma.tmem<f32, 128x128>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: operand A: swizzle 128b_base32b has only an MN-major canonical layout; K-major is not defined}}
  mma.tcgen05 <m128n128k8> tf32 cta_group(1 : i32) %sa, %sb, %t : !mma.smem_desc<A, tf32, k, sw128_base32b, "Sw<2,5,2> o 0 o ((8,16),8):((32,256),1)">, !mma.smem_desc<B, tf32, k, none, "((8,16),(4,2)):((4,64),(1,32))">, !mma.tmem<f32, 128x128>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.convert' op mma.convert: f32 -> e4m3 is not a supported conversion; supported: bf16->f16, bf16->f32, f16->bf16, f16->f32, f32->bf16, f32->f16, f32->f64, f32->s32, f64->f32, s32->f32 (or the same type)}}
  %h = mma.convert %c : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<A, e4m3, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

// PTX's cvt has no .bf16 result before sm_80
builtin.module attributes {mma.target = #mma.target<sm_75>} {
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.convert' op mma.convert: f32 -> bf16 needs sm_80 or later (PTX cvt has no .bf16 result before); the module targets sm_75}}
  %h = mma.convert %c : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<A, bf16, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.convert' op mma.convert: result layout ((4,8),(2,2,2)):((32,1),(16,8,128)) is not the source layout ((4,8),(2,2)):((32,1),(16,8)); a conversion keeps each thread's elements in place, so the TV layouts must be the same map (32 threads x 4 values, the result 32 x 8)}}
  %h = mma.convert %c : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %p = "test.op"() : () -> !llvm.ptr<1>
  // expected-error@+1 {{'mma.make_desc' op mma.make_desc: a descriptor addresses shared memory (!llvm.ptr<3>), not !llvm.ptr<1>}}
  %d = mma.make_desc %p : !llvm.ptr<1> -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %s = "test.op"() : () -> !llvm.ptr<3>
  // expected-error@+1 {{'mma.make_desc' op mma.make_desc: descriptor swizzle 64b disagrees with the SMEM layout's Sw<3,4,3> (128b); the tensor core would read permuted data}}
  %d = mma.make_desc %s : !llvm.ptr<3> -> !mma.smem_desc<B, f16, k, sw64, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %g = "test.op"() : () -> !llvm.ptr<1>
  %s = "test.op"() : () -> !llvm.ptr<3>
  // expected-error@+1 {{'mma.copy_to_smem' op mma.copy_to_smem: the global layout (64,16):(1,64) is not contiguous along K for 16 bytes at (row 0, k 0); 16-byte chunks need stride 1 there}}
  mma.copy_to_smem %g layout("(64,16):(1,64)") into %s as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %g = "test.op"() : () -> !llvm.ptr<1>
  %s = "test.op"() : () -> !llvm.ptr<3>
  // expected-error@+1 {{'mma.copy_to_smem' op mma.copy_to_smem: memory layout (64,32):(32,1) must have shape (64, 16): (rows, K) of the tile}}
  mma.copy_to_smem %g layout("(64,32):(32,1)") into %s as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %g = "test.op"() : () -> !llvm.ptr<1>
  %s = "test.op"() : () -> !llvm.ptr<1>
  // expected-error@+1 {{'mma.copy_to_smem' op mma.copy_to_smem: the destination must be shared memory (!llvm.ptr<3>), not !llvm.ptr<1>}}
  mma.copy_to_smem %g layout("(64,16):(16,1)") into %s as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<1>
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">
  %wc = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
  // expected-error@+1 {{'mma.wgmma' op sm90 wgmma: scale_d=2 is not legal; scale_d must be 0 (D = A*B) or 1 (D = A*B + C)}}
  %d = mma.wgmma <m64n64k16> %sa, %sb, %wc {scale_d = 2 : i32} : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %a = "test.op"() : () -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %b = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
  // expected-error@+1 {{'mma.wgmma_tile' op mma.wgmma_tile: M=320 is not legal; a tile is 64 rows per warpgroup (one to three), each repeating its atom down M: M = 64, 128, 192, 256}}
  %d = mma.wgmma_tile <m320n128k128> %a, %b, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.frag<C, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))"> -> !mma.frag<D, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %a = "test.op"() : () -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %b = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
  // expected-error@+1 {{'mma.wgmma_tile' op mma.wgmma_tile: K=120 is not a multiple of the f16 atom's K=16}}
  %d = mma.wgmma_tile <m128n128k120> %a, %b, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.frag<C, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))"> -> !mma.frag<D, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %a = "test.op"() : () -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %b = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))">
  // expected-error@+1 {{'mma.wgmma_tile' op mma.wgmma_tile: operand C layout ((4,8,4),(2,2,16)):((128,1,16),(64,8,512)) is not a 128x128 accumulator layout (over 2 warpgroups: ((4,8,8),(2,2,16)):((256,1,16),(128,8,1024)); over 1 warpgroup: ((4,8,4),(2,2,16,2)):((256,1,16),(128,8,1024,64)))}}
  %d = mma.wgmma_tile <m128n128k128> %a, %b, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.frag<C, f32, "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))"> -> !mma.frag<D, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %a = "test.op"() : () -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(8,16)):((64,512),(1,8192))">
  %b = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
  // expected-error@+1 {{'mma.wgmma_tile' op mma.wgmma_tile: operand A, K step 0 (k 0..15): SMEM layout Sw<3,4,3> o 0 o (64,(8,2)):(64,(1,8192)) is not the canonical K-major 128b layout Sw<3,4,3> o 0 o ((8,8),16):((64,512),1) (LBO=16, SBO=1024 bytes)}}
  %d = mma.wgmma_tile <m128n128k128> %a, %b, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(8,16)):((64,512),(1,8192))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.frag<C, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))"> -> !mma.frag<D, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90>} {
  %a = "test.op"() : () -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %b = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
  // expected-error@+1 {{'mma.wgmma_tile' op mma.wgmma_tile: sm90 wgmma: target sm_90 does not support wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16; it needs sm_90a}}
  %d = mma.wgmma_tile <m128n128k128> %a, %b, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.frag<C, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))"> -> !mma.frag<D, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
}

// -----

// sparse B holds K = 32 f16 (64 bytes): no 32B-swizzled K-major descriptor can view it
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw32, "Sw<1,4,3> o 0 o ((8,1),32):((16,128),1)">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">
  %e = "test.op"() : () -> !mma.frag<E, b32, "(128,1):(1,0)">
  // expected-error@+1 {{'mma.wgmma' op sm90 wgmma: operand B: K=32 spans 64 bytes, more than one 32b swizzle row}}
  %d = mma.wgmma <m64n8k32> %sa, %sb, %c metadata(%e : !mma.frag<E, b32, "(128,1):(1,0)">) {selector = 0 : i32} : !mma.smem_desc<A, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, sw32, "Sw<1,4,3> o 0 o ((8,1),32):((16,128),1)">, !mma.frag<C, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))"> -> !mma.frag<D, f32, "((4,8,4),(2,2)):((128,1,16),(64,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %a = "test.op"() : () -> !mma.frag<A, e2m1, "((4,8),(8,2,2)):((128,1),(16,8,512))">
  %b = "test.op"() : () -> !mma.frag<B, e2m1, "((4,8),(8,2)):((64,1),(8,256))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  %sfa = "test.op"() : () -> !mma.frag<SFA, ue4m3, "((2,2,8),(4)):((8,0,1),(16))">
  %sfb = "test.op"() : () -> !mma.frag<SFB, ue4m3, "((4,8),(4)):((0,1),(8))">
  // expected-error@+1 {{'mma.block_scale' op mma.sync block_scale: target sm_100a does not support mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3; it needs one of sm_120a, sm_120f, sm_121a, sm_121f}}
  %d = mma.block_scale <m16n8k64> mxf4nvf4 "4X" %a, %b, %c, scales(%sfa, %sfb) : !mma.frag<A, e2m1, "((4,8),(8,2,2)):((128,1),(16,8,512))">, !mma.frag<B, e2m1, "((4,8),(8,2)):((64,1),(8,256))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !mma.frag<SFA, ue4m3, "((2,2,8),(4)):((8,0,1),(16))">, !mma.frag<SFB, ue4m3, "((4,8),(4)):((0,1),(8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_120a>} {
  %a = "test.op"() : () -> !mma.frag<A, e2m1, "((4,8),(8,2,2)):((128,1),(16,8,512))">
  %b = "test.op"() : () -> !mma.frag<B, e2m1, "((4,8),(8,2)):((64,1),(8,256))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  %sfa = "test.op"() : () -> !mma.frag<SFA, ue4m3, "((2,2,8),(2,2)):((8,0,1),(16,0))">
  %sfb = "test.op"() : () -> !mma.frag<SFB, ue4m3, "((4,8),(2,2)):((0,1),(8,0))">
  // expected-error@+1 {{'mma.block_scale' op mma.sync block_scale: scale type=ue4m3 is not legal for kind::mxf4 scale_vec::2X; legal scale type: ue8m0}}
  %d = mma.block_scale <m16n8k64> mxf4 "2X" %a, %b, %c, scales(%sfa, %sfb) : !mma.frag<A, e2m1, "((4,8),(8,2,2)):((128,1),(16,8,512))">, !mma.frag<B, e2m1, "((4,8),(8,2)):((64,1),(8,256))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !mma.frag<SFA, ue4m3, "((2,2,8),(2,2)):((8,0,1),(16,0))">, !mma.frag<SFB, ue4m3, "((4,8),(2,2)):((0,1),(8,0))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_120a>} {
  %a = "test.op"() : () -> !mma.frag<A, e2m1, "((4,8),(4,2,2)):((64,1),(16,8,256))">
  %b = "test.op"() : () -> !mma.frag<B, e3m2_c8, "((4,8),(4,2)):((32,1),(8,128))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{'mma.sync' op mma.sync: operand A element e2m1 is not how kind::f8f6f4 stores e2m1; it must be e2m1_c8 (an 8-bit container)}}
  %d = mma.sync <m16n8k32> %a, %b, %c {kind = #mma.kind<f8f6f4>} : !mma.frag<A, e2m1, "((4,8),(4,2,2)):((64,1),(16,8,256))">, !mma.frag<B, e3m2_c8, "((4,8),(4,2)):((32,1),(8,128))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

// non-power-of-two TMEM allocation
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %slot = "test.op"() : () -> !llvm.ptr<3>
  // expected-error@+1 {{'mma.tmem_alloc' op mma.tmem_alloc: 96 columns is not a legal allocation; ncols must be a power of two in [32, 512] (32, 64, 128, 256, 512)}}
  %t = mma.tmem_alloc %slot cols(96) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x96>
}

// -----

// tensor memory on sm_90a
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %slot = "test.op"() : () -> !llvm.ptr<3>
  // expected-error@+1 {{'mma.tmem_alloc' op mma.tmem_alloc: target sm_90a has no tensor memory; it needs one of sm_100a, sm_100f, sm_103a, sm_103f, sm_110a, sm_110f}}
  %t = mma.tmem_alloc %slot cols(128) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x128>
}

// -----

// a .32x32b load reaches 32-bit cells only
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %t = "test.op"() : () -> !mma.tmem<f32, 128x64>
  // expected-error@+1 {{'mma.tmem_load' op mma.tmem_load: only 32-bit elements move as .32x32b (one column per register); f16 is 16-bit}}
  %d = mma.tmem_load %t : !mma.tmem<f32, 128x64> -> !mma.frag<D, f16, "(128,64):(1,128)">
}

// -----

// disable-output-lane with the wrong number of masks for cta_group 1
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %t = "test.op"() : () -> !mma.tmem<f32, 128x64>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: disable_output_lane has 8 masks; cta_group::1 takes 4}}
  mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {disable_output_lane = array<i32: 0, 0, 0, 0, 0, 0, 0, 0>} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
}

// -----

// nvvm.tcgen05.ld with a register count the shape does not have
builtin.module {
  %t = "test.op"() : () -> !llvm.ptr<6>
  // expected-error@+1 {{'nvvm.tcgen05.ld' op nvvm.tcgen05.ld: .16x256b moves 2 registers per thread; legal: 4, 8, 16, 32, 64, 128 (.x1..x32)}}
  %v = nvvm.tcgen05.ld %t {shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>} : vector<2xi32>
}

// -----

// cta_group other than 1 or 2
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %slot = "test.op"() : () -> !llvm.ptr<3>
  // expected-error@+1 {{'mma.tmem_alloc' op mma.tmem_alloc: cta_group(3) is not legal; cta_group is 1 or 2}}
  %t = mma.tmem_alloc %slot cols(128) cta_group(3) : !llvm.ptr<3> -> !mma.tmem<f32, 128x128>
}

// -----

// an allocation's type must span 128 lanes of exactly its columns
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %slot = "test.op"() : () -> !llvm.ptr<3>
  // expected-error@+1 {{'mma.tmem_alloc' op mma.tmem_alloc: the result type !mma.tmem<f32, 128x64> must be 128x128: an allocation spans all 128 lanes of its columns}}
  %t = mma.tmem_alloc %slot cols(128) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x64>
}

// -----

// the address slot must be shared memory
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %slot = "test.op"() : () -> !llvm.ptr<1>
  // expected-error@+1 {{'mma.tmem_alloc' op mma.tmem_alloc: the address slot must be shared memory (!llvm.ptr<3>)}}
  %t = mma.tmem_alloc %slot cols(128) cta_group(1) : !llvm.ptr<1> -> !mma.tmem<f32, 128x128>
}

// -----

// dealloc frees an allocation, not a view
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %slot = "test.op"() : () -> !llvm.ptr<3>
  %t = mma.tmem_alloc %slot cols(128) cta_group(1) : !llvm.ptr<3> -> !mma.tmem<f32, 128x128>
  %v = mma.tmem_view %t col(64) : !mma.tmem<f32, 128x128> -> !mma.tmem<f32, 128x64>
  // expected-error@+1 {{'mma.tmem_dealloc' op mma.tmem_dealloc: frees an allocation (the result of mma.tmem_alloc), not a view}}
  mma.tmem_dealloc %v cta_group(1) : !mma.tmem<f32, 128x64>
}

// -----

// a view past the end of its tile
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %t = "test.op"() : () -> !mma.tmem<f32, 128x128>
  // expected-error@+1 {{'mma.tmem_view' op mma.tmem_view: columns [96, 160) x 128 lanes do not lie inside !mma.tmem<f32, 128x128>}}
  %v = mma.tmem_view %t col(96) : !mma.tmem<f32, 128x128> -> !mma.tmem<f32, 128x64>
}

// -----

// a .32x32b load by 4 warps covers 128 lanes
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %t = "test.op"() : () -> !mma.tmem<f32, 64x64>
  // expected-error@+1 {{'mma.tmem_load' op mma.tmem_load: .32x32b reaches 128 lanes with 4 warps; the tile has 64}}
  %d = mma.tmem_load %t : !mma.tmem<f32, 64x64> -> !mma.frag<D, f32, "(64,64):(1,64)">
}

// -----

// a tmem_store fragment whose layout is not the .32x32b one
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %t = "test.op"() : () -> !mma.tmem<f32, 128x64>
  %f = "test.op"() : () -> !mma.frag<D, f32, "(128,64):(64,1)">
  // expected-error@+1 {{'mma.tmem_store' op mma.tmem_store: fragment layout (128,64):(64,1) is not the .32x32b layout (128,64):(1,128) of !mma.tmem<f32, 128x64>}}
  mma.tmem_store %f, %t : !mma.frag<D, f32, "(128,64):(64,1)">, !mma.tmem<f32, 128x64>
}

// -----

// accumulate other than 0 or 1
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">
  %t = "test.op"() : () -> !mma.tmem<f32, 128x64>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: accumulate=2 is not legal; accumulate is 0 (D = A*B) or 1 (D = A*B + D)}}
  mma.tcgen05 <m128n64k16> f16 cta_group(1 : i32) %sa, %sb, %t {accumulate = 2 : i32} : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">, !mma.smem_desc<B, f16, k, none, "((8,8),(8,2)):((8,128),(1,64))">, !mma.tmem<f32, 128x64>
}

// -----

// block-scaled kinds take no disable-output-lane
builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, e4m3, k, none, "((8,16),(16,2)):((16,256),(1,128))">
  %sb = "test.op"() : () -> !mma.smem_desc<B, e4m3, k, none, "((8,8),(16,2)):((16,256),(1,128))">
  %t = "test.op"() : () -> !mma.tmem<f32, 128x64>
  %sfa = "test.op"() : () -> !mma.tmem<ue8m0, 128x32>
  %sfb = "test.op"() : () -> !mma.tmem<ue8m0, 128x32>
  // expected-error@+1 {{'mma.tcgen05' op sm100 tcgen05.mma: kind::mxf8f6f4 takes no disable_output_lane (block-scaled forms have no such operand)}}
  mma.tcgen05 <m128n64k32> mxf8f6f4 cta_group(1 : i32) %sa, %sb, %t scales(%sfa, %sfb : !mma.tmem<ue8m0, 128x32>, !mma.tmem<ue8m0, 128x32>) {scale_vec = #mma.scale_vec<block32>, disable_output_lane = array<i32: 0, 0, 0, 0>} : !mma.smem_desc<A, e4m3, k, none, "((8,16),(16,2)):((16,256),(1,128))">, !mma.smem_desc<B, e4m3, k, none, "((8,8),(16,2)):((16,256),(1,128))">, !mma.tmem<f32, 128x64>
}

// -----

// nvvm.tcgen05.st with more registers than .x128 of .32x32b
builtin.module {
  %t = "test.op"() : () -> !llvm.ptr<6>
  %v = "test.op"() : () -> vector<256xi32>
  // expected-error@+1 {{'nvvm.tcgen05.st' op nvvm.tcgen05.st: .32x32b moves 256 registers per thread; legal: 1, 2, 4, 8, 16, 32, 64, 128 (.x1..x128)}}
  nvvm.tcgen05.st %t, %v {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<256xi32>
}

// -----

// The chip given as a plain number is not a chip: every target check would be skipped.
builtin.module attributes {mma.target = 3} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{mma.target must name a chip, as #mma.target<sm_..>; got 3 : i64}}
  %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

// The chip is #mma.target<..>, never a string (lower-mma-to-nvvm keeps it as it is).
builtin.module attributes {mma.target = "sm_80"} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{mma.target must name a chip, as #mma.target<sm_..>; got "sm_80"}}
  %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

// The words of the atom ops: a word no catalogue row takes is refused while the IR is read, naming the legal words.
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{operand layout 'diag' is not one of col, row}}
  %d = mma.sync <m16n8k16> %a, %b, %c {layout_a = #mma.layout<diag>} : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{kind 'f7' is not one of f16, f8f6f4, i8, mxf4, mxf4nvf4, mxf8f6f4, tf32}}
  %d = mma.sync <m16n8k16> %a, %b, %c {kind = #mma.kind<f7>} : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{bit operation 'or' is not one of and, xor}}
  %d = mma.sync <m16n8k16> %a, %b, %c {bitop = #mma.bitop<or>} : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{rounding mode 'rna' is not one of rm, rn, rp, rz}}
  %d = mma.sync <m16n8k16> %a, %b, %c {rounding = #mma.rounding<rna>} : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_120a>} {
  %a = "test.op"() : () -> !mma.frag<A, e2m1, "((4,8),(8,2,2)):((128,1),(16,8,512))">
  // expected-error@+1 {{scale_vec '8X' is not one of 1X, 2X, 4X, block16, block32}}
  %d = mma.block_scale <m16n8k64> mxf4nvf4 "8X" %a, %a, %a, scales(%a, %a) : !mma.frag<A, e2m1, "((4,8),(8,2,2)):((128,1),(16,8,512))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
  // expected-error@+1 {{kind 'f17' is not one of f16, f8f6f4, i8, mxf4, mxf4nvf4, mxf8f6f4, tf32}}
  mma.tcgen05 <m128n64k16> f17 cta_group(1 : i32) %sa, %sa, %sa : !mma.smem_desc<A, f16, k, none, "((8,16),(8,2)):((8,128),(1,64))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_100a>} {
  %sa = "test.op"() : () -> !mma.smem_desc<A, e4m3, k, none, "((8,16),(16,2)):((16,256),(1,128))">
  // expected-error@+1 {{scale type 'ue5m3' is not one of ue4m3, ue8m0}}
  mma.tcgen05 <m128n64k32> mxf8f6f4 cta_group(1 : i32) %sa, %sa, %sa {scale_type = #mma.scale_type<ue5m3>} : !mma.smem_desc<A, e4m3, k, none, "((8,16),(16,2)):((16,256),(1,128))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),((2,2,2),2,2)):((64,1),((32,8,256),16,512))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),((2,2),2,2)):((32,1),((16,128),8,256))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))">
  // expected-error@+1 {{mma.sync_tile: tile N=12 is not a multiple of the atom's N=8}}
  %d = mma.sync_tile <m32n12k32> atom <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),((2,2,2),2,2)):((64,1),((32,8,256),16,512))">, !mma.frag<B, f16, "((4,8),((2,2),2,2)):((32,1),((16,128),8,256))">, !mma.frag<C, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))"> -> !mma.frag<D, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),((2,2),2,2)):((32,1),((16,128),8,256))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))">
  // expected-error@+1 {{mma.sync_tile: operand A must be the A fragment in the 32x16x32 tile's TV layout ((4,8),((2,2,2),2,2)):((64,1),((32,8,256),16,512)) (2x2 atoms of mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32)}}
  %d = mma.sync_tile <m32n16k32> atom <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),((2,2),2,2)):((32,1),((16,128),8,256))">, !mma.frag<C, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))"> -> !mma.frag<D, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))">
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_75>} {
  %a = "test.op"() : () -> !mma.frag<A, f16, "((4,8),((2,2,2),2,2)):((64,1),((32,8,256),16,512))">
  %b = "test.op"() : () -> !mma.frag<B, f16, "((4,8),((2,2),2,2)):((32,1),((16,128),8,256))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))">
  // expected-error@+1 {{mma.sync_tile: mma.sync: target sm_75 does not support mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32; it needs sm_80 or later}}
  %d = mma.sync_tile <m32n16k32> atom <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),((2,2,2),2,2)):((64,1),((32,8,256),16,512))">, !mma.frag<B, f16, "((4,8),((2,2),2,2)):((32,1),((16,128),8,256))">, !mma.frag<C, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))"> -> !mma.frag<D, f32, "((4,8),((2,2),2,2)):((64,1),((32,8),16,256))">
}

// -----

// one warpgroup repeating m64n256 down 128 rows would hold 256 accumulator registers per thread
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %a = "test.op"() : () -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)">
  %b = "test.op"() : () -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,32),64):((64,512),1)">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,32,2)):((256,1,16),(128,8,1024,64))">
  // expected-error@+1 {{'mma.wgmma_tile' op mma.wgmma_tile: a 128x256 f32 accumulator over 1 warpgroup(s) is 256 registers per thread; a thread has at most 255 (more warpgroups or a narrower tile)}}
  %d = mma.wgmma_tile <m128n256k64> %a, %b, %c : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,32),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,32,2)):((256,1,16),(128,8,1024,64))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,32,2)):((256,1,16),(128,8,1024,64))">
}

// -----

// C over one warpgroup, D over two: the same 128x128 tile split two ways
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %a = "test.op"() : () -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %b = "test.op"() : () -> !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,16,2)):((256,1,16),(128,8,1024,64))">
  // expected-error@+1 {{'mma.wgmma_tile' op mma.wgmma_tile: operand D's layout ((4,8,8),(2,2,16)):((256,1,16),(128,8,1024)) spreads the tile over 2 warpgroup(s), C's over 1; D keeps C's registers, so the layouts agree}}
  %d = mma.wgmma_tile <m128n128k128> %a, %b, %c : !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.smem_desc<B, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))">, !mma.frag<C, f32, "((4,8,4),(2,2,16,2)):((256,1,16),(128,8,1024,64))"> -> !mma.frag<D, f32, "((4,8,8),(2,2,16)):((256,1,16),(128,8,1024))">
}

// -----

// one warpgroup repeating down 256 rows reads repeat i at A + i * (repeat 1's offset): rows 128..191 here lie
// 32 KiB in, not 16 KiB
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %a = "test.op"() : () -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8,2,2),64):((64,512,4096,16384),1)">
  %b = "test.op"() : () -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,1),64):((64,512),1)">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,4),(2,2,4)):((512,1,16),(256,8,64))">
  // expected-error@+1 {{'mma.wgmma_tile' op mma.wgmma_tile: A rows 128..191 (warpgroup 0, repeat 2) are not rows 0..63 shifted by 16384 bytes}}
  %d = mma.wgmma_tile <m256n8k64> %a, %b, %c : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8,2,2),64):((64,512,4096,16384),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,1),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,4),(2,2,4)):((512,1,16),(256,8,64))"> -> !mma.frag<D, f32, "((4,8,4),(2,2,4)):((512,1,16),(256,8,64))">
}

// -----

// the descriptor's base offset stays 0, so every atom starts in phase with the 128B swizzle: A's second 64-row
// block at byte 8320 is row 1 of a 1024-byte pattern (8192 would be in phase)
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %a = "test.op"() : () -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8,2),64):((64,512,4160),1)">
  %b = "test.op"() : () -> !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,1),64):((64,512),1)">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,8),(2,2)):((256,1,16),(128,8))">
  // expected-error@+1 {{'mma.wgmma_tile' op mma.wgmma_tile: operand A rows 64..127, K step 0: starts at byte 8320, row 1 of a 128B swizzle pattern that repeats every 1024 bytes; an atom must start in phase (a multiple of 1024 bytes, plus less than 128 along a row)}}
  %d = mma.wgmma_tile <m128n8k64> %a, %b, %c : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8,2),64):((64,512,4160),1)">, !mma.smem_desc<B, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,1),64):((64,512),1)">, !mma.frag<C, f32, "((4,8,8),(2,2)):((256,1,16),(128,8))"> -> !mma.frag<D, f32, "((4,8,8),(2,2)):((256,1,16),(128,8))">
}

// RUN: mmatom-opt %s --split-input-file --verify-diagnostics
// RS wgmma tiles (A in registers) and the accumulator -> A conversion that feeds them: one case per diagnostic.

// the A fragment of one warpgroup's 128 rows for a tile whose accumulator spans two warpgroups
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %a = "test.op"() : () -> !mma.frag<A, bf16, "((4,8,4),(2,2,2,2)):((256,1,16),(128,8,1024,64))">
  %b = "test.op"() : () -> !mma.smem_desc<B, bf16, k, none, "Sw<0,4,3> o 0 o ((8,1),(8,2)):((8,512),(1,512))">
  %c = "test.op"() : () -> !mma.frag<C, f32, "((4,8,8),(2,2)):((256,1,16),(128,8))">
  // expected-error@+1 {{'mma.wgmma_tile' op mma.wgmma_tile: operand A must be the register A fragment of the 128x16 tile over 2 warpgroup(s), !mma.frag<A, bf16, "((4,8,8),(2,2,2)):((256,1,16),(128,8,1024))"> (1 K step of wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16); got !mma.frag<A, bf16, "((4,8,4),(2,2,2,2)):((256,1,16),(128,8,1024,64))">}}
  %d = mma.wgmma_tile <m128n8k16> %a, %b, %c : !mma.frag<A, bf16, "((4,8,4),(2,2,2,2)):((256,1,16),(128,8,1024,64))">, !mma.smem_desc<B, bf16, k, none, "Sw<0,4,3> o 0 o ((8,1),(8,2)):((8,512),(1,512))">, !mma.frag<C, f32, "((4,8,8),(2,2)):((256,1,16),(128,8))"> -> !mma.frag<D, f32, "((4,8,8),(2,2)):((256,1,16),(128,8))">
}

// -----

// an accumulator over two warpgroups converted to the A of a tile on one: other elements per thread
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  %s = "test.op"() : () -> !mma.frag<C, f32, "((4,8,8),(2,2,2)):((256,1,16),(128,8,1024))">
  // expected-error@+1 {{'mma.convert' op mma.convert: result layout ((4,8,4),(2,2,2,2)):((256,1,16),(128,8,1024,64)) is not the source layout ((4,8,8),(2,2,2)):((256,1,16),(128,8,1024)); a conversion keeps each thread's elements in place, so the TV layouts must be the same map (256 threads x 8 values, the result 128 x 16)}}
  %p = mma.convert %s : !mma.frag<C, f32, "((4,8,8),(2,2,2)):((256,1,16),(128,8,1024))"> -> !mma.frag<A, bf16, "((4,8,4),(2,2,2,2)):((256,1,16),(128,8,1024,64))">
}

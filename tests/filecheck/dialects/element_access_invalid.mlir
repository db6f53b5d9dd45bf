// mma.extract / mma.insert: one invalid case per diagnostic.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %f = "test.op"() : () -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{mma.extract: value 4 is out of range; each thread holds values 0..3 of !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">}}
  %x = mma.extract %f[4] : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> f32
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %f = "test.op"() : () -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
  // expected-error@+1 {{mma.extract: a f32 fragment's element is f32, not f16}}
  %x = mma.extract %f[0] : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> f16
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_89>} {
  %f = "test.op"() : () -> !mma.frag<A, e4m3, "((4,8),(4,2,2)):((64,1),(16,8,256))">
  // expected-error@+1 {{mma.extract: elements of a e4m3 fragment are not addressable one by one; element access takes f16, bf16, f32, f64, s32 (mma.convert first)}}
  %x = mma.extract %f[0] : !mma.frag<A, e4m3, "((4,8),(4,2,2)):((64,1),(16,8,256))"> -> f32
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  %f = "test.op"() : () -> !mma.frag<D, f16, "((4,8),(2,2)):((32,1),(16,8))">
  %v = "test.op"() : () -> f32
  // expected-error@+1 {{mma.insert: a f16 fragment's element is f16, not f32}}
  %g = mma.insert %v, %f[1] : f32, !mma.frag<D, f16, "((4,8),(2,2)):((32,1),(16,8))">
}

// One SM80 tensor-core atom: D = A x B + C, m16n8k16, f16 inputs, f32 accumulate.
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  func.func @atom(%a: !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">,
                  %b: !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">,
                  %c: !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">) -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))"> {
    %d = mma.sync <m16n8k16> %a, %b, %c : !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">, !mma.frag<B, f16, "((4,8),(2,2)):((16,1),(8,64))">, !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))"> -> !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
    func.return %d : !mma.frag<D, f32, "((4,8),(2,2)):((32,1),(16,8))">
  }
}

// Layouts bounded by the memory they describe: each limit is checked by the verifier before any layout is
// enumerated (a zero extent used to divide by zero, an extent of 2^31 to be walked element by element).
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics -p lower-mma-to-nvvm

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @zero_extent(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.copy_to_smem: tile `as` Sw<3,4,3> o 0 o ((8,0),16):((64,512),1) has extent 0 in mode (0,1); every mode of a tile spans at least one element}}
    mma.copy_to_smem %g layout("(64,16):(16,1)") into %s as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,0),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @smem_tile_too_big(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.copy_to_smem: tile `as` Sw<3,4,3> o 0 o ((8,268435456),16):((64,512),1) is 2147483648 x 16 bf16 = 64 GiB; SMEM holds at most 227 KiB}}
    mma.copy_to_smem %g layout("(2147483648,16):(16,1)") into %s as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,268435456),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @desc_tile_too_big(%s: !llvm.ptr<3>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.make_desc: result Sw<3,4,3> o 0 o ((8,2048),64):((64,512),1) is 16384 x 64 f16 = 2 MiB; SMEM holds at most 227 KiB}}
    %d = mma.make_desc %s : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,2048),64):((64,512),1)">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @desc_reaches_past_smem(%s: !llvm.ptr<3>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.make_desc: result Sw<3,4,3> o 0 o ((8,2),64):((64,1048576),1) reaches byte 2098175; SMEM holds at most 227 KiB}}
    %d = mma.make_desc %s : !llvm.ptr<3> -> !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,2),64):((64,1048576),1)">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @negative_stride_store(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %z = arith.constant 0.0 : f32
    %d = mma.fill %z : f32 -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    // expected-error@+1 {{mma.store_fragment: memory layout (16,8):(-8,1) has stride -8 in mode 0; offsets from the base pointer are unsigned, so strides must be non-negative}}
    mma.store_fragment %d, %p layout("(16,8):(-8,1)") : !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">, !llvm.ptr<1>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @negative_stride_load(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.load_fragment: memory layout (128,64):(-64,1) has stride -64 in mode 0; offsets from the base pointer are unsigned, so strides must be non-negative}}
    %a = mma.load_fragment %p layout("(128,64):(-64,1)") : !llvm.ptr<1> -> !mma.frag<A, f16, "(128,64):(1,128)">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @negative_stride_copy(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.copy_to_smem: memory layout ((8,8),16):((16,-128),1) has stride -128 in mode (0,1); offsets from the base pointer are unsigned, so strides must be non-negative}}
    mma.copy_to_smem %g layout("((8,8),16):((16,-128),1)") into %s as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),16):((64,512),1)"> threads(128 : i32) : !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @global_tile_too_big(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.load_fragment: memory layout (2147483648,8):(8,1) covers 17179869184 f32 = 64 GiB; a tile moves through one CTA's registers, at most 1024 threads x 255 registers = 1020 KiB}}
    %c = mma.load_fragment %p layout("(2147483648,8):(8,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @too_many_threads(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.load_fragment: fragment layout (2048,2):(1,2048) spans 2048 threads; a CTA has at most 1024}}
    %c = mma.load_fragment %p layout("(2048,2):(2,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "(2048,2):(1,2048)">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @too_many_registers(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.load_fragment: fragment layout (1024,128):(1,1024) holds 128 f32 values per thread = 128 32-bit registers x 1024 threads; a CTA's register file has 65536}}
    %c = mma.load_fragment %p layout("(1024,128):(128,1)") : !llvm.ptr<1> -> !mma.frag<C, f32, "(1024,128):(1,1024)">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @offset_wider_than_an_address(%p: !llvm.ptr<1>, %off: i128) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.load_fragment: offset operand i128 is wider than the 64 bits of an address}}
    %c = mma.load_fragment %p [%off] layout("(16,8):(8,1)") : !llvm.ptr<1>, i128 -> !mma.frag<C, f32, "((4,8),(2,2)):((32,1),(16,8))">
    llvm.return
  }
}

// -----

// A stride past the address space: was an 'out of range for type i64' VerifyException from the lowering's
// offset arithmetic (found by fuzzing mmatom.compile).
builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @huge_stride(%pa: !llvm.ptr<1>) attributes {nvvm.kernel} {
    // expected-error@+1 {{mma.load_fragment: memory layout (16,16):(16,10000000000000000000000000000000000000000) reaches byte 300000000000000000000000000000000000000480 from its base; a kernel addresses at most 2^47 bytes (128 TiB) of global memory}}
    %a = mma.load_fragment %pa layout("(16,16):(16,10000000000000000000000000000000000000000)") : !llvm.ptr<1> -> !mma.frag<A, f16, "((4,8),(2,2,2)):((32,1),(16,8,128))">
    llvm.return
  }
}

// The Hopper data path of the mma dialect: !mma.tensor_map, mma.as_tensor_map, mma.tma_load, mma.tma_store,
// mma.stmatrix_tile. One invalid case per diagnostic, with its exact text.
// RUN: mmatom-opt %s --split-input-file --verify-diagnostics

// !mma.tensor_map<ELEM, ROWSxCOLS, SWIZZLE>: parse errors, then the box rules of cuTensorMapEncodeTiled.

builtin.module {
  // expected-error@+1 {{'f7' is not an element type; a tensor map holds one of f64, f32, tf32, s32, f16, bf16, s8, u8, e4m3, e5m2, ue8m0, ue4m3, b32, e3m2_c8, e2m3_c8, e2m1_c8}}
  %m = "test.op"() : () -> !mma.tensor_map<f7, 128x64, sw128>
}

// -----

builtin.module {
  // expected-error@+1 {{expected an element type}}
  %m = "test.op"() : () -> !mma.tensor_map<, 128x64, sw128>
}

// -----

builtin.module {
  // expected-error@+1 {{expected the box as ROWSxCOLS, each at most 256, such as 128x64}}
  %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x, sw128>
}

// -----

builtin.module {
  // expected-error@+1 {{expected the box as ROWSxCOLS, each at most 256, such as 128x64; got 257x64}}
  %m = "test.op"() : () -> !mma.tensor_map<bf16, 257x64, sw128>
}

// -----

builtin.module {
  // expected-error@+1 {{expected a swizzle (none, sw32, sw64, sw128)}}
  %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, 128>
}

// -----

builtin.module {
  // sw128_base32b is a descriptor swizzle (tcgen05), not one TMA writes
  // expected-error@+1 {{'sw128_base32b' is not a TMA swizzle; expected one of none, sw32, sw64, sw128}}
  %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128_base32b>
}

// -----

builtin.module {
  // expected-error@+1 {{!mma.tensor_map: e2m1 elements are narrower than a byte; the TMA path moves 8-, 16-, 32- and 64-bit elements (f64, f32, tf32, s32, f16, bf16, s8, u8, e4m3, e5m2, ue8m0, ue4m3, b32, e3m2_c8, e2m3_c8, e2m1_c8)}}
  %m = "test.op"() : () -> !mma.tensor_map<e2m1, 128x128, sw64>
}

// -----

builtin.module {
  // `0x64` is one hexadecimal token to the lexer; read as 0 x 64, as MLIR reads a shape
  // expected-error@+1 {{!mma.tensor_map: a box has 1 to 256 rows; got 0}}
  %m = "test.op"() : () -> !mma.tensor_map<bf16, 0x64, sw128>
}

// -----

builtin.module {
  // expected-error@+1 {{!mma.tensor_map: a box has 1 to 256 columns; got 0}}
  %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x0, none>
}

// -----

builtin.module {
  // expected-error@+1 {{!mma.tensor_map: a box row is a multiple of 16 bytes; 4 x 16-bit elements is 8 bytes}}
  %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x4, none>
}

// -----

builtin.module {
  // expected-error@+1 {{!mma.tensor_map: with the 128b swizzle a box row is exactly 128 bytes (the swizzle span: 64 16-bit elements); got 64}}
  %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x32, sw128>
}

// -----

// mma.as_tensor_map: a kernel parameter passed by value, {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}.

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @k(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel} {
    // expected-error@+1 {{'mma.as_tensor_map' op mma.as_tensor_map: the tensor memory accelerator needs sm_90 or later; the module targets sm_80}}
    %m = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%a: !llvm.ptr<1> {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel} {
    // expected-error@+1 {{'mma.as_tensor_map' op mma.as_tensor_map: the parameter must be !llvm.ptr (a CUtensorMap's address), not !llvm.ptr<1>}}
    %m = "mma.as_tensor_map"(%a) : (!llvm.ptr<1>) -> !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k() attributes {nvvm.kernel} {
    %p = "test.op"() : () -> !llvm.ptr
    // expected-error@+1 {{'mma.as_tensor_map' op mma.as_tensor_map: %p: it is not a kernel parameter (it is the result of test.op); a tensor map is a kernel parameter with {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}}}
    %m = mma.as_tensor_map %p : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel} {
    llvm.br ^bb1(%a : !llvm.ptr)
  ^bb1(%x: !llvm.ptr):
    // expected-error@+1 {{'mma.as_tensor_map' op mma.as_tensor_map: %x: it is not a kernel parameter (it is an argument of a later block of @k); a tensor map is a kernel parameter with {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}}}
    %m = mma.as_tensor_map %x : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  "test.op"() ({
  ^bb0(%x: !llvm.ptr):
    // expected-error@+1 {{'mma.as_tensor_map' op mma.as_tensor_map: %x: it is not a kernel parameter (it is an argument of a block of test.op); a tensor map is a kernel parameter with {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}}}
    %m = mma.as_tensor_map %x : !mma.tensor_map<bf16, 128x64, sw128>
    "test.termop"() : () -> ()
  }) : () -> ()
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @helper(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) {
    // expected-error@+1 {{'mma.as_tensor_map' op mma.as_tensor_map: %a: parameter 0 of @helper: @helper is not a kernel (no nvvm.kernel); a tensor map is a kernel parameter (nvvm.grid_constant belongs on kernel parameters only)}}
    %m = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%a: !llvm.ptr {nvvm.grid_constant}) attributes {nvvm.kernel} {
    // expected-error@+1 {{'mma.as_tensor_map' op mma.as_tensor_map: %a: parameter 0 of @k has no llvm.byval; a tensor map is passed by value: {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}}}
    %m = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%a: !llvm.ptr {llvm.byval = !llvm.array<64 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel} {
    // expected-error@+1 {{'mma.as_tensor_map' op mma.as_tensor_map: %a: parameter 0 of @k has llvm.byval = !llvm.array<64 x i8>; a tensor map (a CUtensorMap) is llvm.byval = !llvm.array<128 x i8>}}
    %m = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>}) attributes {nvvm.kernel} {
    // expected-error@+1 {{'mma.as_tensor_map' op mma.as_tensor_map: %a: parameter 0 of @k lacks nvvm.grid_constant (the kernel reads the launch's copy in place); it needs {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}}}
    %m = mma.as_tensor_map %a : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

// mma.tma_load: the target, its operands, then the box against the !mma.smem_desc it lands as.

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the tensor memory accelerator needs sm_90 or later; the module targets sm_80}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !llvm.ptr
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the tensor map must be a !mma.tensor_map (an mma.as_tensor_map's result), not !llvm.ptr}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !llvm.ptr
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    %r = "test.op"() : () -> i64
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the row coordinate must be i32, not i64}}
    "mma.tma_load"(%m, %r, %col, %dst, %bar) <{tile = !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)">, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 0>}> : (!mma.tensor_map<bf16, 128x64, sw128>, i64, i32, !llvm.ptr<3>, !llvm.ptr<3>) -> ()
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    %c = "test.op"() : () -> i64
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the column coordinate must be i32, not i64}}
    "mma.tma_load"(%m, %row, %c, %dst, %bar) <{tile = !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)">, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 0>}> : (!mma.tensor_map<bf16, 128x64, sw128>, i32, i64, !llvm.ptr<3>, !llvm.ptr<3>) -> ()
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    %g = "test.op"() : () -> !llvm.ptr<1>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the destination must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
    "mma.tma_load"(%m, %row, %col, %g, %bar) <{tile = !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)">, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 0>}> : (!mma.tensor_map<bf16, 128x64, sw128>, i32, i32, !llvm.ptr<1>, !llvm.ptr<3>) -> ()
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    %g = "test.op"() : () -> !llvm.ptr
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the barrier must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr}}
    "mma.tma_load"(%m, %row, %col, %dst, %g) <{tile = !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)">, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 0>}> : (!mma.tensor_map<bf16, 128x64, sw128>, i32, i32, !llvm.ptr<3>, !llvm.ptr) -> ()
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the multicast mask must be i16 (a bit per CTA of the cluster), not i32}}
    "mma.tma_load"(%m, %row, %col, %dst, %bar, %row) <{tile = !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)">, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1>}> : (!mma.tensor_map<bf16, 128x64, sw128>, i32, i32, !llvm.ptr<3>, !llvm.ptr<3>, i32) -> ()
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    // in the custom syntax the mask is an i16: another type is a parse error
    // expected-error@+1 {{operand is used with type i16, but has been previously used or defined with type i32}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar multicast %row as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the tensor map holds bf16 but the SMEM tile it lands as holds f16; the element types must be the same}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, f16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the box 128x64 of !mma.tensor_map<bf16, 128x64, sw128> does not land as !mma.smem_desc<B, bf16, mn, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> (an MN-major tile: its K runs down the box, its rows across): the SMEM tile is 64x128; a box of 128x64 holds whole tiles of 64 columns and a divisor of 128 rows}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<B, bf16, mn, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the SMEM tile: SMEM layout Sw<3,4,3> o 0 o (8192):(1) must have rank 2, (rows, K) of the tile}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o (8192):(1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the box 128x64 of !mma.tensor_map<bf16, 128x64, sw128> does not land as !mma.smem_desc<A, bf16, k, sw64, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)">: the tensor map swizzles 128b, the SMEM tile 64b}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw64, "Sw<3,4,3> o 0 o ((8,16),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the box 128x64 of !mma.tensor_map<bf16, 128x64, sw128> does not land as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,32),64):((64,512),1)">: the SMEM tile is 256x64; a box of 128x64 holds whole tiles of 64 columns and a divisor of 128 rows}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,32),64):((64,512),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

// a zero extent in the SMEM tile (fuzzing: it reached a modulo by zero in the box check)
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 64x64, sw128>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the SMEM tile: layout Sw<3,4,3> o 0 o ((8,0),64):((64,512),1) has extent 0 in mode (0,1); every mode of a tile spans at least one element}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,0),64):((64,512),1)"> : !mma.tensor_map<bf16, 64x64, sw128>
    llvm.return
  }
}

// -----

// The rows of 8-row groups swapped: every element is in the box, at the wrong byte.
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 128x64, sw128>
    // expected-error@+1 {{'mma.tma_load' op mma.tma_load: the box 128x64 of !mma.tensor_map<bf16, 128x64, sw128> does not land as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((512,64),1)">: element (row 1, col 0) is at byte 144 of the TMA box but the SMEM layout Sw<3,4,3> o 0 o ((8,16),64):((512,64),1) reads it at byte 1024}}
    mma.tma_load %m[%row, %col] into %dst barrier %bar as !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,16),64):((512,64),1)"> : !mma.tensor_map<bf16, 128x64, sw128>
    llvm.return
  }
}

// -----

// mma.tma_store

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 64x64, sw128>
    // expected-error@+1 {{'mma.tma_store' op mma.tma_store: the tensor memory accelerator needs sm_90 or later; the module targets sm_80}}
    mma.tma_store %dst into %m[%row, %col] : !mma.tensor_map<bf16, 64x64, sw128>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 64x64, sw128>
    %g = "test.op"() : () -> !llvm.ptr<1>
    // expected-error@+1 {{'mma.tma_store' op mma.tma_store: the source must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
    "mma.tma_store"(%g, %m, %row, %col) : (!llvm.ptr<1>, !mma.tensor_map<bf16, 64x64, sw128>, i32, i32) -> ()
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
    // expected-error@+1 {{'mma.tma_store' op mma.tma_store: the tensor map must be a !mma.tensor_map (an mma.as_tensor_map's result), not !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">}}
    mma.tma_store %dst into %m[%row, %col] : !mma.smem_desc<A, bf16, k, sw128, "Sw<3,4,3> o 0 o ((8,8),64):((64,512),1)">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 64x64, sw128>
    %r = "test.op"() : () -> i64
    // expected-error@+1 {{'mma.tma_store' op mma.tma_store: the row coordinate must be i32, not i64}}
    "mma.tma_store"(%dst, %m, %r, %col) : (!llvm.ptr<3>, !mma.tensor_map<bf16, 64x64, sw128>, i64, i32) -> ()
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %m = "test.op"() : () -> !mma.tensor_map<bf16, 64x64, sw128>
    %c = "test.op"() : () -> index
    // expected-error@+1 {{'mma.tma_store' op mma.tma_store: the column coordinate must be i32, not index}}
    "mma.tma_store"(%dst, %m, %row, %c) : (!llvm.ptr<3>, !mma.tensor_map<bf16, 64x64, sw128>, i32, index) -> ()
    llvm.return
  }
}

// -----

// mma.stmatrix_tile: a 64x64 block of a 16-bit wgmma accumulator tile, staged in SMEM for mma.tma_store.

builtin.module attributes {mma.target = #mma.target<sm_80>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: stmatrix needs sm_90 or later; the module targets sm_80}}
    mma.stmatrix_tile %acc[0 : i32] into %dst : !mma.frag<D, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> vector<64xbf16>
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: the source must be a !mma.frag (a wgmma accumulator tile), not vector<64xbf16>}}
    mma.stmatrix_tile %acc[0 : i32] into %dst : vector<64xbf16>
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    %g = "test.op"() : () -> !llvm.ptr<1>
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: the destination must be !llvm.ptr<3> (a shared-memory pointer), not !llvm.ptr<1>}}
    "mma.stmatrix_tile"(%acc, %g) <{block = 0 : i32}> : (!mma.frag<D, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">, !llvm.ptr<1>) -> ()
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<A, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: the source must be an accumulator (role C or D), not role A}}
    mma.stmatrix_tile %acc[0 : i32] into %dst : !mma.frag<A, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, f64, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: the accumulator holds f64; a staged box holds bf16, f16, f32 (convert it first)}}
    mma.stmatrix_tile %acc[0 : i32] into %dst : !mma.frag<D, f64, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "(128):(1)">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: the source's layout (128):(1) has rank 1; a TV layout is (threads, values)}}
    mma.stmatrix_tile %acc[0 : i32] into %dst : !mma.frag<D, bf16, "(128):(1)">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8),(2,2)):((32,1),(16,8))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: the source's layout ((4,8),(2,2)):((32,1),(16,8)) spans 32 threads; a wgmma accumulator tile spans 128, 256 or 384 (one to three warpgroups)}}
    mma.stmatrix_tile %acc[0 : i32] into %dst : !mma.frag<D, bf16, "((4,8),(2,2)):((32,1),(16,8))">
    llvm.return
  }
}

// -----

// N beyond any wgmma's is refused before the accumulator layout of that N is built (it took a minute).
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,4),(2,2,65536)):((128,1,16),(64,8,512))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: the tile is 64x524288; stmatrix_tile stores blocks of 64 columns of a wgmma accumulator (N at most 256), so N is one of 64, 128, 192, 256}}
    mma.stmatrix_tile %acc[0 : i32] into %dst : !mma.frag<D, bf16, "((4,8,4),(2,2,65536)):((128,1,16),(64,8,512))">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,4),(2,2,8)):((128,1,16),(8,64,512))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: the source's layout ((4,8,4),(2,2,8)):((128,1,16),(8,64,512)) is not the wgmma accumulator layout of a 64x64 tile, ((4,8,4),(2,2,8)):((128,1,16),(64,8,512))}}
    mma.stmatrix_tile %acc[0 : i32] into %dst : !mma.frag<D, bf16, "((4,8,4),(2,2,8)):((128,1,16),(8,64,512))">
    llvm.return
  }
}

// -----

builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: column block 4 of a 128x256 tile is out of range; the block is in [0, 3] (4 blocks of 64 bf16 columns)}}
    mma.stmatrix_tile %acc[4 : i32] into %dst : !mma.frag<D, bf16, "((4,8,8),(2,2,32)):((256,1,16),(128,8,1024))">
    llvm.return
  }
}

// -----

// a 128x64 tile over one warpgroup holds two repeats of 64 rows: repeat 2 does not exist
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,4),(2,2,8,2)):((256,1,16),(128,8,1024,64))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: repeat 2 of a 128x64 tile over 1 warpgroup(s) is out of range; each warpgroup holds 2 repeat(s) of 64 rows, [0, 1]}}
    mma.stmatrix_tile %acc[0 : i32] repeat 2 : i32 into %dst : !mma.frag<D, bf16, "((4,8,4),(2,2,8,2)):((256,1,16),(128,8,1024,64))">
    llvm.return
  }
}

// -----

// a transposed box is stored with stmatrix.trans: 16-bit elements only
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, f32, "((4,8,4),(2,2,4)):((128,1,16),(64,8,512))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: a transposed box is stored with stmatrix.trans, of 16-bit elements; the accumulator holds f32}}
    mma.stmatrix_tile %acc[0 : i32] transposed into %dst : !mma.frag<D, f32, "((4,8,4),(2,2,4)):((128,1,16),(64,8,512))">
    llvm.return
  }
}

// -----

// a transposed box's rows are the tile's columns: at most 64
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: a transposed box of a tile of N = 128; its rows are the tile's columns, N one of 16, 32, 64}}
    mma.stmatrix_tile %acc[0 : i32] transposed into %dst : !mma.frag<D, bf16, "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))">
    llvm.return
  }
}

// -----

// a staged box's row is a TMA swizzle span: 128 or 64 bytes
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,4),(2,2,12)):((128,1,16),(64,8,512))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: row_bytes 32; a staged box's rows are one of 128, 64 bytes (its swizzle span)}}
    mma.stmatrix_tile %acc[0 : i32] row_bytes 32 : i32 into %dst : !mma.frag<D, bf16, "((4,8,4),(2,2,12)):((128,1,16),(64,8,512))">
    llvm.return
  }
}

// -----

// 64-byte rows stage 32 columns of a 16-bit accumulator only
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, f32, "((4,8,4),(2,2,12)):((128,1,16),(64,8,512))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: row_bytes 64 with a f32 box; 64-byte rows stage a 16-bit accumulator, not transposed}}
    mma.stmatrix_tile %acc[0 : i32] row_bytes 64 : i32 into %dst : !mma.frag<D, f32, "((4,8,4),(2,2,12)):((128,1,16),(64,8,512))">
    llvm.return
  }
}

// -----

// boxes of 64-byte rows divide N in 32-column blocks: a 64x80 tile has none
builtin.module attributes {mma.target = #mma.target<sm_90a>} {
  llvm.func @k(%dst: !llvm.ptr<3>) attributes {nvvm.kernel} {
    %acc = "test.op"() : () -> !mma.frag<D, bf16, "((4,8,4),(2,2,10)):((128,1,16),(64,8,512))">
    // expected-error@+1 {{'mma.stmatrix_tile' op mma.stmatrix_tile: the tile is 64x80; stmatrix_tile stores blocks of 32 columns of a wgmma accumulator (N at most 256), so N is one of 32, 64, 96, 128, 160, 192, 224, 256}}
    mma.stmatrix_tile %acc[0 : i32] row_bytes 64 : i32 into %dst : !mma.frag<D, bf16, "((4,8,4),(2,2,10)):((128,1,16),(64,8,512))">
    llvm.return
  }
}

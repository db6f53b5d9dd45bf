"""mma -> nvvm: conversion patterns and passes, one module per kind of op (register atoms, wgmma, tcgen05,
fragments, SMEM copies, loops)."""

"""Verifier passes over whole kernels (xDSL ModulePasses): the wgmma and TMEM async lifecycles and the TMA
-> mbarrier -> wgmma pipeline."""

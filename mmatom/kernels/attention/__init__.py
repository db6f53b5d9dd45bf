"""Attention forward (FlashAttention-3's structure) on mmatom's public API."""

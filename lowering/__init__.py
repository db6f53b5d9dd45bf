"""Conversions from mma atoms to nvvm (one module per MMA generation) land here."""

"""Demonstrations on any PC: a whole simulated deal or bank through the real pipeline."""

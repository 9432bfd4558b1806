"""Synthetic pictures: the card renderer, nuisances, and the simulated dealing box."""

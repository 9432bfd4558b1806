"""The live table's faro deal: its state machine and its deal scripts."""

"""The live table: commands, the journal, and each game's state machine and scripts."""

"""The live table's Baccarat Banque bank: its commands, state machine and bank scripts."""

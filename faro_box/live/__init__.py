"""The appliance's wiring: camera frames through the reader into the table, one module per game."""

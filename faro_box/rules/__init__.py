"""The pure rules engines, one per game, as peers: faro and Baccarat Banque."""

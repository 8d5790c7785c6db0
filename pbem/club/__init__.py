"""The club: people across games, open games by mail, standbys, reliability, ratings and tournaments."""

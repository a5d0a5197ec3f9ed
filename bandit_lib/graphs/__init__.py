"""Graph generators and graph instances of the book's graph bandit chapters."""

"""Running work units and the batch files: the executor interface (``executor``), its local
process pool and Ray cluster, the dispatch loop they share, and the request ids and batch
file format every runner writes (``batch``). Only ``ray_cluster`` imports ``ray``."""

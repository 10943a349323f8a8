#!/usr/bin/env python3
"""Forms a real torch.distributed NCCL group, one process a rank, and runs one all-reduce, so that NCCL prints its
start-up lines (run with NCCL_DEBUG=INFO): the capture behind the fixtures in __tests__/fixtures/nccl/.

    python3 scripts/nccl-capture.py RANKS PORT

RANKS processes on GPUs 0..RANKS-1 (NCCL refuses two ranks on one GPU). Prints NCCL's and torch's versions first.
"""
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def rank_main(rank: int, ranks: int, port: int) -> None:
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=ranks, device_id=torch.device("cuda", rank))
    x = torch.ones(1 << 20, device="cuda")
    dist.all_reduce(x)
    torch.cuda.synchronize()
    assert x[0].item() == ranks, x[0].item()
    dist.destroy_process_group()


if __name__ == "__main__":
    ranks, port = int(sys.argv[1]), int(sys.argv[2])
    print(f"torch {torch.__version__}, NCCL {'.'.join(map(str, torch.cuda.nccl.version()))}", flush=True)
    mp.spawn(rank_main, args=(ranks, port), nprocs=ranks)

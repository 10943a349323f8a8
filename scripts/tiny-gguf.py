#!/usr/bin/env python3
"""Writes a random-weight llama GGUF model that a real llama-server loads, for the real-engine suite and bench.

    GGUF_PY=/path/to/llama.cpp/gguf-py python3 scripts/tiny-gguf.py OUT.gguf [--size tiny|small|big|gpu]

`tiny` (under 1 MB) loads at once; `small` (about 200 MB) in about a second on 2 cores, the real-engine suite's;
`big` (about 1 GiB, F32) in a few seconds, the bench's, so that a load lasts long enough to measure a gate's lag
against; `gpu` (about 9.9 GB, F32, 48 layers) for a CUDA build with `-ngl 99`, a load of about 2 s on an H200
(the bench's GPU row). The vocabulary is byte-level (SentencePiece with a byte token for each of the 256 bytes),
so any prompt tokenizes. Weights are random: it generates nonsense,
which is all a readiness gate asks of it. Needs numpy and llama.cpp's own gguf-py (pure Python).
"""
import os
import sys

sys.path.insert(0, os.environ.get("GGUF_PY", ""))
import numpy as np  # noqa: E402
import gguf  # noqa: E402

SIZES = {
    # n_embd, layers, n_ff, heads, kv heads
    "tiny": (64, 2, 128, 4, 4),
    "small": (1024, 4, 2816, 8, 8),
    "big": (2048, 5, 5632, 16, 16),
    "gpu": (2048, 48, 5632, 16, 16),
}


def main() -> None:
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit("usage: tiny-gguf.py OUT.gguf [--size tiny|small|big|gpu]")
    out = args[0]
    size = args[args.index("--size") + 1] if "--size" in args else "tiny"
    if size not in SIZES:
        sys.exit(f"--size: tiny, small, big or gpu, not {size!r}")
    n_embd, n_layer, n_ff, n_head, n_head_kv = SIZES[size]
    rng = np.random.default_rng(0)

    tokens = [b"<unk>", b"<s>", b"</s>"] + [f"<0x{b:02X}>".encode() for b in range(256)]
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL] + [gguf.TokenType.BYTE] * 256
    n_vocab = len(tokens)

    w = gguf.GGUFWriter(out, "llama")
    w.add_name(f"wait-for-model random {size}")
    w.add_context_length(512)
    w.add_embedding_length(n_embd)
    w.add_block_count(n_layer)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head_kv)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_dimension_count(n_embd // n_head)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * n_vocab)
    w.add_token_types(types)
    w.add_unk_token_id(0)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)

    def tensor(name: str, *shape: int) -> None:
        w.add_tensor(name, (rng.standard_normal(shape, dtype=np.float32) * 0.02).astype(np.float32))

    def ones(name: str, n: int) -> None:
        w.add_tensor(name, np.ones(n, dtype=np.float32))

    n_kv = n_embd // n_head * n_head_kv
    tensor("token_embd.weight", n_vocab, n_embd)
    ones("output_norm.weight", n_embd)
    tensor("output.weight", n_vocab, n_embd)
    for i in range(n_layer):
        ones(f"blk.{i}.attn_norm.weight", n_embd)
        tensor(f"blk.{i}.attn_q.weight", n_embd, n_embd)
        tensor(f"blk.{i}.attn_k.weight", n_kv, n_embd)
        tensor(f"blk.{i}.attn_v.weight", n_kv, n_embd)
        tensor(f"blk.{i}.attn_output.weight", n_embd, n_embd)
        ones(f"blk.{i}.ffn_norm.weight", n_embd)
        tensor(f"blk.{i}.ffn_gate.weight", n_ff, n_embd)
        tensor(f"blk.{i}.ffn_down.weight", n_embd, n_ff)
        tensor(f"blk.{i}.ffn_up.weight", n_ff, n_embd)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()

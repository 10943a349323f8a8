# Holds GIB GiB on the GPU (a model server's weights), with one child process (a worker); with --serve PORT also
# answers /v1/models like a server once the memory is held. Prints "holding <pid>" when ready.
import http.server, json, os, subprocess, sys, time
import torch
gib = float(sys.argv[1])
port = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == '--serve' else None
t0 = time.time()
x = torch.empty(int(gib * 2**30), dtype=torch.uint8, device='cuda')
x.fill_(1)
torch.cuda.synchronize()
worker = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)'])
print(f'holding {os.getpid()} {gib} GiB after {time.time() - t0:.1f}s, worker {worker.pid}', flush=True)
if port is None:
    while True:
        time.sleep(1)
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({'object': 'list', 'data': [{'id': 'held-model', 'object': 'model', 'owned_by': 'vllm'}]}).encode()
        self.send_response(200); self.send_header('content-type', 'application/json'); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a):
        pass
http.server.HTTPServer(('127.0.0.1', port), H).serve_forever()

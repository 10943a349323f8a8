import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 880:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  C: () => (/* binding */ runAction)
});

// UNUSED EXPORTS: parseFileCommand

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(760);
;// CONCATENATED MODULE: ./src/action-runner.ts
/**
 * Runs the packaged action the way a GitHub runner does: `node dist/index.js` with `INPUT_*` variables and
 * real GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files. Used by `npm run demo` and the end-to-end tests.
 */




async function runAction(options) {
    const dir = (0,external_node_fs_namespaceObject.mkdtempSync)((0,external_node_path_.join)((0,external_node_os_namespaceObject.tmpdir)(), 'wait-for-model-run-'));
    const outputFile = (0,external_node_path_.join)(dir, 'output');
    const summaryFile = (0,external_node_path_.join)(dir, 'summary');
    (0,external_node_fs_namespaceObject.writeFileSync)(outputFile, '');
    (0,external_node_fs_namespaceObject.writeFileSync)(summaryFile, '');
    const env = {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? dir,
        RUNNER_TEMP: dir,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        ...options.env
    };
    // The runner upper-cases the name and keeps hyphens: `match-regex` → INPUT_MATCH-REGEX.
    for (const [name, value] of Object.entries(options.inputs))
        env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
    const started = performance.now();
    try {
        const child = (0,external_node_child_process_namespaceObject.spawn)(options.node ?? process.execPath, [options.entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => {
            stdout += d.toString();
            options.echo?.write(d);
        });
        child.stderr.on('data', (d) => (stderr += d.toString()));
        const code = await new Promise((resolve, reject) => {
            child.on('error', reject);
            child.on('close', resolve);
        });
        return {
            code,
            stdout,
            stderr,
            outputs: parseFileCommand((0,external_node_fs_namespaceObject.readFileSync)(outputFile, 'utf8')),
            summary: (0,external_node_fs_namespaceObject.readFileSync)(summaryFile, 'utf8'),
            wallMs: performance.now() - started
        };
    }
    finally {
        (0,external_node_fs_namespaceObject.rmSync)(dir, { recursive: true, force: true });
    }
}
/** Reads the `name<<delimiter` / value / `delimiter` records that @actions/core appends to GITHUB_OUTPUT. */
function parseFileCommand(text) {
    const result = {};
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
        const m = /^([^<]+)<<(.+)$/.exec(lines[i]);
        if (!m)
            continue;
        const end = lines.indexOf(m[2], i + 1);
        if (end < 0)
            break;
        result[m[1]] = lines.slice(i + 1, end).join('\n');
        i = end;
    }
    return result;
}


/***/ }),

/***/ 20:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(136);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_url__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _action_runner_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(880);
/* harmony import */ var _simulator_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(29);
/**
 * `npm run demo`: a simulated OpenAI-compatible server refuses connections, then answers 503 "Loading model",
 * then lists /shared/kimi-k2.5-int4; the packaged action waits for `model: kimi` and prints its outputs.
 */




const loadMs = 12_000;
const server = await (0,_simulator_js__WEBPACK_IMPORTED_MODULE_3__/* .simulate */ .JV)({ engine: 'openai', model: '/shared/kimi-k2.5-int4', loadMs });
const url = `${server.baseUrl}/v1/models`;
console.log(`Simulated server on ${url}: refuses connections for ${(loadMs * 0.4) / 1000}s, answers 503 until ${loadMs / 1000}s, then lists the model.\n`);
console.log('Running dist/index.js as the runner would, with inputs: url, model: kimi, interval: 1s, timeout: 60s\n');
try {
    const run = await (0,_action_runner_js__WEBPACK_IMPORTED_MODULE_2__/* .runAction */ .C)({
        // dist/demo/index.js runs the action bundle beside it, dist/index.js
        entry: (0,node_path__WEBPACK_IMPORTED_MODULE_0__.join)((0,node_path__WEBPACK_IMPORTED_MODULE_0__.dirname)((0,node_url__WEBPACK_IMPORTED_MODULE_1__.fileURLToPath)(import.meta.url)), '..', 'index.js'),
        inputs: { url, model: 'kimi', interval: '1s', timeout: '60s', 'progress-interval': '3s' },
        echo: process.stdout
    });
    console.log('\nOutputs:');
    for (const [name, value] of Object.entries(run.outputs))
        console.log(`  ${name} = ${value}`);
    console.log('\nJob summary:\n');
    console.log(run.summary);
    process.exitCode = run.code ?? 1;
}
finally {
    await server.close();
}

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 29:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  JV: () => (/* binding */ simulate)
});

// UNUSED EXPORTS: SIMULATED_ENGINES, freePort

;// CONCATENATED MODULE: external "node:http"
const external_node_http_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");
;// CONCATENATED MODULE: external "node:net"
const external_node_net_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");
;// CONCATENATED MODULE: ./src/simulator.ts
/**
 * A stand-in for a model server's startup, faithful to each engine's own answers (see the research notes on
 * model servers): the port stays closed while the engine does, then the engine's loading answers, then ready.
 * Serves `npm run demo` and the project's own test fixtures.
 */


const json = (body, status = 200) => ({ status, body, type: 'application/json' });
const empty = (status) => ({ status });
const openAiList = (model, ownedBy, extra = {}) => json({ object: 'list', data: [{ id: model, object: 'model', created: 1767225600, owned_by: ownedBy, root: model, ...extra }] });
const SIMULATED_ENGINES = {
    // vLLM binds its socket without listening until the engine is built: refused for the whole load.
    vllm: {
        opensAt: 1,
        reply: (path, _phase, model) => path === '/health' ? empty(200) : path === '/v1/models' ? openAiList(model, 'vllm', { max_model_len: 262144 }) : undefined
    },
    // SGLang opens the port for its warm-up request: /health says 503 while /v1/models already lists.
    sglang: {
        opensAt: 0.9,
        reply: (path, phase, model) => path === '/health' || path === '/health_generate'
            ? empty(phase === 'ready' ? 200 : 503)
            : path === '/v1/models'
                ? openAiList(model, 'sglang', { max_model_len: 262144 })
                : undefined
    },
    // llama.cpp serves HTTP before loading; /v1/models lists the model with "meta": null until it is loaded.
    llamacpp: {
        opensAt: 0,
        reply(path, phase, model) {
            if (path === '/v1/models' || path === '/models') {
                const meta = phase === 'ready' ? { vocab_type: 2, n_vocab: 151936, n_ctx_train: 262144 } : null;
                return json({ models: [{ name: model, model }], object: 'list', data: [{ id: model, object: 'model', created: 1767225600, owned_by: 'llamacpp', meta }] });
            }
            if (phase === 'loading') {
                return path === '/'
                    ? { status: 503, body: '<html><head><title>Loading model</title></head></html>', type: 'text/html' }
                    : json({ error: { message: 'Loading model', type: 'unavailable_error', code: 503 } }, 503);
            }
            return path === '/health' ? json({ status: 'ok' }) : undefined;
        }
    },
    // TGI binds only after warm-up.
    tgi: {
        opensAt: 1,
        reply: (path, _phase, model) => path === '/health'
            ? empty(200)
            : path === '/info'
                ? json({ model_id: model, model_sha: null, max_input_tokens: 4095, max_total_tokens: 4096, router: 'text-generation-router', version: '3.3.6' })
                : path === '/v1/models'
                    ? json({ object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: model }] })
                    : undefined
    },
    // Ollama answers at once and lists a model only once it is pulled.
    ollama: {
        opensAt: 0,
        reply(path, phase, model) {
            const ready = phase === 'ready';
            if (path === '/')
                return { status: 200, body: 'Ollama is running', type: 'text/plain' };
            if (path === '/api/tags')
                return json({ models: ready ? [{ name: model, model, size: 2019393189 }] : [] });
            if (path === '/v1/models') {
                return json({ object: 'list', data: ready ? [{ id: model, object: 'model', created: 1767225600, owned_by: 'library' }] : null });
            }
            return undefined;
        }
    },
    // Triton loads its startup models before it opens any endpoint.
    triton: {
        opensAt: 1,
        reply(path, _phase, model) {
            if (path === '/v2/health/ready' || path === '/v2/health/live')
                return empty(200);
            if (path === `/v2/models/${model}/ready`)
                return empty(200);
            if (path === `/v2/models/${model}`)
                return json({ name: model, versions: ['1'], platform: 'onnxruntime_onnx', inputs: [], outputs: [] });
            return undefined;
        }
    },
    // A generic OpenAI-compatible server: refused, then 503 "Loading model" everywhere, then the list.
    openai: {
        opensAt: 0.4,
        reply(path, phase, model) {
            if (phase === 'loading')
                return json({ error: { message: 'Loading model', type: 'unavailable_error', code: 503 } }, 503);
            return path === '/health' ? empty(200) : path === '/v1/models' ? openAiList(model, 'system') : undefined;
        }
    }
};
/** Starts the simulated startup now: the port opens at `opensAt × loadMs`, the model is ready at `loadMs`. */
async function simulate(options) {
    const engine = SIMULATED_ENGINES[options.engine];
    const host = options.host ?? '127.0.0.1';
    const port = options.port || (await freePort(host));
    const startedAt = Date.now();
    const readyAt = startedAt + options.loadMs;
    const server = (0,external_node_http_namespaceObject.createServer)((req, res) => {
        const phase = Date.now() >= readyAt ? 'ready' : 'loading';
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        const reply = engine.reply(path, phase, options.model) ?? json({ detail: 'Not Found' }, 404);
        const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status, reply.type ? { 'content-type': reply.type } : {});
        res.end(body);
    });
    let closed = false;
    const listen = () => {
        if (!closed)
            server.listen(port, host);
    };
    const opensInMs = engine.opensAt * options.loadMs;
    // An engine that serves from the start is listening before this returns, so no probe sees it refuse.
    let timer;
    if (opensInMs <= 0)
        await new Promise((resolve) => server.listen(port, host, resolve));
    else
        timer = setTimeout(listen, opensInMs);
    return {
        port,
        baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
        readyAt,
        close: () => new Promise((resolve) => {
            closed = true;
            clearTimeout(timer);
            server.closeAllConnections();
            if (server.listening)
                server.close(() => resolve());
            else
                resolve();
        })
    };
}
/** Asks the kernel for a free port, then releases it for the simulated server to open later. */
function freePort(host = '127.0.0.1') {
    return new Promise((resolve, reject) => {
        const probe = (0,external_node_net_namespaceObject.createServer)();
        probe.once('error', reject);
        probe.listen(0, host, () => {
            const { port } = probe.address();
            probe.close(() => resolve(port));
        });
    });
}


/***/ }),

/***/ 760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(20);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 

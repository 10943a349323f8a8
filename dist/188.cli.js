export const id = 188;
export const ids = [188];
export const modules = {

/***/ 7188:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  LogFollower: () => (/* reexport */ log_follower/* LogFollower */.p),
  attachServer: () => (/* reexport */ process/* attachServer */.Zd),
  envReport: () => (/* reexport */ envReport),
  gpuSnapshot: () => (/* reexport */ nvidia_smi/* gpuSnapshot */.dU),
  isDockerProxy: () => (/* reexport */ port_owner/* isDockerProxy */.f_),
  listenerOwnership: () => (/* reexport */ port_owner/* listenerOwnership */.kA),
  localPort: () => (/* reexport */ port_owner/* localPort */.yv),
  memoryHeldBy: () => (/* reexport */ nvidia_smi/* memoryHeldBy */.Mv),
  newLogFile: () => (/* reexport */ process/* newLogFile */.rO),
  preflight: () => (/* reexport */ preflight),
  preflightVerdict: () => (/* reexport */ preflightVerdict),
  processTree: () => (/* reexport */ port_owner/* processTree */.WZ),
  resolvePid: () => (/* reexport */ process/* resolvePid */.QF),
  serverEnv: () => (/* reexport */ process/* serverEnv */.NK),
  startServer: () => (/* reexport */ process/* startServer */.UD)
});

// EXTERNAL MODULE: ./src/inputs/secrets.ts
var inputs_secrets = __webpack_require__(3332);
;// CONCATENATED MODULE: ./src/server/env-report.ts
/** `env-report`: the chosen variables from a process's environment, with credential-like values masked. */

/**
 * Each name or glob (`*` any run of characters, `?` one) in order; a glob gives every matching variable, sorted.
 * A value is masked when its name says it is a credential, or when it holds one of `secrets` (the api-key in a
 * variable called MODEL_AUTH is still the api-key): the report also goes into the history file.
 */
function envReport(patterns, environ, secrets = []) {
    const entries = [];
    const seen = new Set();
    for (const pattern of patterns) {
        const glob = new RegExp(`^${pattern.replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
        const names = Object.keys(environ)
            .filter((n) => glob.test(n))
            .sort();
        if (names.length === 0)
            entries.push({ name: pattern });
        for (const name of names.filter((n) => !seen.has(n))) {
            seen.add(name);
            const value = environ[name];
            const secret = (0,inputs_secrets/* isCredentialName */.hN)(name) || secrets.some((s) => value.includes(s));
            entries.push({ name, value: secret ? inputs_secrets/* MASK */.v5 : value });
        }
    }
    return entries;
}

// EXTERNAL MODULE: ./src/gpu/nvidia-smi.ts
var nvidia_smi = __webpack_require__(7777);
// EXTERNAL MODULE: ./src/server/log-follower.ts
var log_follower = __webpack_require__(5568);
// EXTERNAL MODULE: ./src/server/port-owner.ts
var port_owner = __webpack_require__(8706);
;// CONCATENATED MODULE: ./src/server/preflight.ts
/**
 * Before `start` launches anything: is the port the server will listen on free, and what else holds memory on the
 * GPUs it will use? A server an earlier job left behind would answer the gate in the new one's place, or make it
 * fail on "address in use"; a foreign process on its GPUs can make it run out of memory. Structured answers only;
 * the words are in report/lifecycle-report.ts, the decision (fail, warn) in the conclusion.
 */


/** Checks the ports of `urls` that name this machine, and the GPUs as `gpuCheck` asks. */
async function preflight(urls, gpuCheck, deps) {
    let portBusy;
    for (const port of new Set(urls.map((u) => (0,port_owner/* localPort */.yv)(u, deps.hostName)))) {
        // a host elsewhere is probed as before: its port is not this machine's to check
        if (port === undefined)
            continue;
        const owner = (0,port_owner/* portOwner */.l)(port, { proc: deps.proc });
        if (owner.kind === 'listening') {
            portBusy = owner;
            break;
        }
    }
    return { portBusy, gpu: await gpuFinding(gpuCheck, deps) };
}
async function gpuFinding(gpuCheck, deps) {
    if (gpuCheck === 'off')
        return { kind: 'off' };
    const snapshot = await (deps.gpu ?? (() => (0,nvidia_smi/* gpuSnapshot */.dU)({ env: deps.env, timeoutMs: 5_000 })))();
    if (snapshot.kind === 'unavailable')
        return { kind: 'unavailable', why: snapshot.why, detail: snapshot.detail };
    const apps = (0,nvidia_smi/* appsOnVisibleGpus */.v5)(snapshot, deps.env.CUDA_VISIBLE_DEVICES);
    // a process nvidia-smi shows with 0 MiB holds nothing to speak of; one it cannot measure ([N/A]) may hold much
    const holding = apps.filter((a) => a.usedMiB === undefined || a.usedMiB > 0);
    return holding.length > 0
        ? { kind: 'busy', apps: holding, gpus: snapshot.gpus }
        : { kind: 'clear', gpus: snapshot.gpus };
}
/** What the pre-flight means for the wait: `refuse` ends it before anything starts; `warnGpu` says so and goes on. */
function preflightVerdict(p, gpuCheck) {
    const gpuBusy = p.gpu.kind === 'busy';
    if (p.portBusy !== undefined)
        return { refuse: 'port-busy', warnGpu: gpuBusy };
    if (gpuBusy && gpuCheck === 'fail')
        return { refuse: 'gpu-busy', warnGpu: false };
    return { warnGpu: gpuBusy };
}

// EXTERNAL MODULE: ./src/server/process.ts
var process = __webpack_require__(9898);
;// CONCATENATED MODULE: ./src/wait/server-side.ts
/**
 * What only a wait with a server to start or follow, or a server log to read, needs. `gate` imports it then and
 * only then: it is a chunk of the bundle of its own, so a plain wait (a URL, a model) neither compiles nor holds
 * it (about 40 KB of the action's own code; `npm run bench -- --only startup`).
 */








/***/ })

};

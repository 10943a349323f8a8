export const id = 279;
export const ids = [279];
export const modules = {

/***/ 6279:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  conclude: () => (/* reexport */ conclusion/* conclude */.E),
  concludedSince: () => (/* reexport */ cancelled/* concludedSince */.uT),
  defaultHistoryFile: () => (/* reexport */ store/* defaultHistoryFile */.Oe),
  gate: () => (/* reexport */ gate),
  summaryMarkdown: () => (/* reexport */ summaryMarkdown)
});

;// CONCATENATED MODULE: ./src/wait/deps.ts
const withDefaults = (gateDeps) => ({
    ...gateDeps,
    warn: gateDeps.warn ?? gateDeps.log,
    notice: gateDeps.notice ?? gateDeps.log,
    env: gateDeps.env ?? process.env
});

// EXTERNAL MODULE: ./src/wait/sequence.ts + 20 modules
var sequence = __webpack_require__(3757);
// EXTERNAL MODULE: ./src/wait/cancelled.ts + 1 modules
var cancelled = __webpack_require__(5165);
;// CONCATENATED MODULE: ./src/wait/gate.ts



async function gate(settings, gateDeps) {
    const deps = withDefaults(gateDeps);
    const { clock } = deps;
    const began = clock.now();
    // A fleet of servers, one per endpoint: each endpoint's own wait, loaded only then (a chunk of its own).
    if (settings.servers !== undefined)
        return (await __webpack_require__.e(/* import() */ 749).then(__webpack_require__.bind(__webpack_require__, 4749))).fleetGate(settings, deps);
    const seam = await (0,sequence/* serverSeam */.m)(settings, deps);
    const refused = await seam.preflight();
    // A cancel while the pre-flight looked (nvidia-smi may take seconds): nothing is started, nothing probed.
    const early = deps.cancel?.halted;
    if (early !== undefined || refused !== undefined)
        seam.abandon();
    if (early !== undefined)
        return (0,cancelled/* cancelledBeforeWait */.yl)(settings, early, clock.now() - (deps.startedAt ?? began));
    if (refused !== undefined)
        return refused;
    return (0,sequence/* waitWith */.O)(seam, settings, deps);
}

// EXTERNAL MODULE: ./src/wait/conclusion.ts + 2 modules
var conclusion = __webpack_require__(6100);
// EXTERNAL MODULE: ./src/report/answer-report.ts + 1 modules
var answer_report = __webpack_require__(9823);
// EXTERNAL MODULE: ./src/report/failure.ts
var failure = __webpack_require__(3304);
// EXTERNAL MODULE: ./src/report/markdown.ts
var markdown = __webpack_require__(4285);
// EXTERNAL MODULE: ./src/report/outputs.ts
var outputs = __webpack_require__(5468);
// EXTERNAL MODULE: ./src/report/progress.ts
var progress = __webpack_require__(8991);
// EXTERNAL MODULE: ./src/report/profile-report.ts
var profile_report = __webpack_require__(8478);
// EXTERNAL MODULE: ./src/report/smoke-report.ts
var smoke_report = __webpack_require__(1542);
// EXTERNAL MODULE: ./src/runtime/clock.ts
var clock = __webpack_require__(9842);
;// CONCATENATED MODULE: ./src/report/endpoints-summary.ts
/**
 * A fleet's endpoints in the job summary: a row each, and for a fleet of servers (one per endpoint) each one's own
 * server, startup and GPU memory, and with a smoke test its figures.
 */


const MAX_SUMMARY_ENDPOINTS = 100;
const dash = (text) => (text === undefined || text === '' ? '\u2014' : text);
const BASE = [
    ['endpoint', '---', (r) => (0,markdown/* code */.aY)(r.url.href)],
    ['result', '---', (r) => (r.ready ? '\u2705 ready' : `\u274c ${r.reason}`)],
    ['elapsed', '---:', (r) => `${(0,clock/* seconds */.YA)(r.elapsedMs)} s`],
    ['status', '---:', (r) => dash(r.last?.status?.toString())],
    ['model', '---', (r) => (r.last?.modelId === undefined ? '\u2014' : (0,markdown/* code */.aY)(r.last.modelId))]
];
const SERVER = [
    [
        'server',
        '---',
        (r) => r.server?.container !== undefined
            ? `container ${(0,markdown/* code */.aY)(r.server.container.slice(0, 12))}`
            : r.server?.pid !== undefined
                ? `pid ${r.server.pid}`
                : '\u2014'
    ],
    ['startup', '---:', (r) => (r.server?.startupMs === undefined ? '\u2014' : `${(0,clock/* seconds */.YA)(r.server.startupMs)} s`)],
    ['GPU memory', '---:', (r) => (r.server?.gpuMemoryMiB === undefined ? '\u2014' : `${r.server.gpuMemoryMiB} MiB`)]
];
const SMOKE = [
    ['TTFT', '---:', (r) => (r.smoke?.ttftMs === undefined ? '\u2014' : `${Math.round(r.smoke.ttftMs)} ms`)],
    [
        'decode',
        '---:',
        (r) => (r.smoke?.decodeTokensPerSecond === undefined ? '\u2014' : `${r.smoke.decodeTokensPerSecond.toFixed(1)} tok/s`)
    ]
];
/** The endpoints' section of a fleet's summary (more than one endpoint), as Markdown lines. */
function endpointLines(outcome) {
    const results = outcome.results;
    const columns = [
        ...BASE,
        ...(results.some((r) => r.server !== undefined) ? SERVER : []),
        ...(results.some((r) => r.smoke !== undefined) ? SMOKE : [])
    ];
    const lines = [
        `#### Endpoints (${results.filter((r) => r.ready).length} of ${results.length} ready)`,
        '',
        `| ${columns.map(([h]) => h).join(' | ')} |`,
        `|${columns.map(([, a]) => a).join('|')}|`
    ];
    for (const r of results.slice(0, MAX_SUMMARY_ENDPOINTS))
        lines.push(`| ${columns.map(([, , value]) => (0,markdown/* cell */.Hn)(value(r))).join(' | ')} |`);
    if (results.length > MAX_SUMMARY_ENDPOINTS)
        lines.push(`| and ${results.length - MAX_SUMMARY_ENDPOINTS} more |${' |'.repeat(columns.length - 1)}`);
    lines.push('', `The rows above describe each endpoint; the table at the top, and the timeline, describe ${outcome.url.href}.`, '');
    return [...lines, ...environments(results)];
}
/** The longest value a cell of the environments' table shows. */
const MAX_VALUE_CHARS = 200;
/**
 * A fleet of servers with `env-report`: each server's values side by side, a row per endpoint, so that the one
 * server whose tuning did not reach it stands out (a value that differs from the first server's is marked).
 */
function environments(results) {
    const reported = results.slice(0, MAX_SUMMARY_ENDPOINTS).filter((r) => r.server?.env !== undefined);
    if (reported.length === 0)
        return [];
    const names = [...new Set(reported.flatMap((r) => (r.server?.env ?? []).map((e) => e.name)))];
    const valueOf = (r, name) => r.server?.env?.find((e) => e.name === name)?.value;
    const first = reported[0];
    const shown = (r, name) => {
        const value = valueOf(r, name);
        const text = value === undefined
            ? '*not set*'
            : (0,markdown/* code */.aY)(value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}\u2026` : value);
        return r !== first && value !== valueOf(first, name) ? `\u26a0\ufe0f ${text}` : text;
    };
    return [
        '#### Server environments',
        '',
        `| endpoint | process | ${names.map((n) => (0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(n))).join(' | ')} |`,
        `|---|---:|${names.map(() => '---').join('|')}|`,
        ...reported.map((r) => `| ${(0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(r.url.href))} | ${r.server?.envPid ?? r.server?.pid ?? '\u2014'} | ${names.map((n) => (0,markdown/* cell */.Hn)(shown(r, n))).join(' | ')} |`),
        ''
    ];
}

;// CONCATENATED MODULE: ./src/report/summary.ts
/** The job summary in GitHub-flavoured Markdown: the wait's figures, its endpoints, its timeline, its findings. */









/** The first `max` items, then how many more: a list of 60,000 models must not make a summary of megabytes. */
const firstOf = (items, max) => items.length > max ? [...items.slice(0, max), `and ${items.length - max} more`] : [...items];
/** GitHub refuses a job summary over 1 MiB; each part is capped, and this is the last guard. */
const MAX_SUMMARY_BYTES = 1024 * 1024 - 16 * 1024;
const MAX_SUMMARY_MODELS = 50;
const MAX_TAIL_CHARS = 64 * 1024;
const MAX_ENV_VALUE_CHARS = 1000;
/** The job summary in GitHub-flavoured Markdown. */
function summaryMarkdown(outcome, ctx) {
    const out = (0,outputs/* outputs */.V4)(outcome);
    const rows = [
        ['Result', outcome.ready ? '\u2705 ready' : `\u274c not ready (${outcome.reason})`],
        ['Endpoint', (0,markdown/* code */.aY)(ctx.url.href)],
        ['Elapsed', `${out['elapsed-seconds']} s`],
        ['Probes', out.attempts],
        ['First HTTP answer', out['first-response-seconds'] === '' ? 'never' : `${out['first-response-seconds']} s`],
        [
            'Listed models',
            outcome.models.length
                ? firstOf(outcome.models.map((m) => (0,markdown/* code */.aY)(clipText(m, 200))), MAX_SUMMARY_MODELS).join(', ')
                : 'none'
        ],
        ['Matched model', out['model-id'] === '' ? (ctx.expect.model === undefined ? '\u2014' : 'none') : (0,markdown/* code */.aY)(out['model-id'])]
    ];
    const server = outcome.server;
    if (out['generation-seconds'] !== '')
        rows.push(['Generation request', `${out['generation-seconds']} s`]);
    const er = outcome.engineReadiness;
    if (er !== undefined) {
        const at = (ms) => (ms === undefined ? 'never' : `at ${(0,clock/* seconds */.YA)(ms)} s`);
        rows.push(['Required answers', `the model listed (${at(er.listedMs)}); ${er.request} 200 (${at(er.readyMs)})`]);
    }
    if (server?.pid !== undefined)
        rows.push(['Server process', `pid ${server.pid}`]);
    if (server?.gpuMemoryMiB !== undefined)
        rows.push(['GPU memory held by the server', `${server.gpuMemoryMiB} MiB`]);
    if (out['startup-seconds'] !== '')
        rows.push(['Startup (from the process start)', `${out['startup-seconds']} s`]);
    if (server?.logFile !== undefined)
        rows.push(['Server log', (0,markdown/* code */.aY)(server.logFile)]);
    if (outcome.profile?.engineLabel !== undefined)
        rows.push(['Engine', (0,markdown/* mdText */.bC)(outcome.profile.engineLabel)]);
    if (out['expected-seconds'] !== '') {
        const against = out['regression-percent'] === ''
            ? ''
            : ` (this run: ${Number(out['regression-percent']) > 0 ? '+' : ''}${out['regression-percent']}%)`;
        rows.push(['Usual startup (median of earlier runs)', `${out['expected-seconds']} s${against}`]);
    }
    // the smoke test's words may quote the server
    rows.push(...(0,smoke_report/* smokeRows */.X4)(outcome).map(([k, v]) => [k, (0,markdown/* mdText */.bC)(v)]));
    // A failure leads with its cause, the reason, the fatal line or last answer and the server's last lines; the
    // figures and the charts come after it, for whoever wants more than why.
    const lines = ['### wait-for-model', '', ...causeLines(outcome, ctx)];
    lines.push('| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${(0,markdown/* cell */.Hn)(v)} |`), '');
    if (outcome.results.length > 1)
        lines.push(...endpointLines(outcome));
    lines.push('#### Timeline', '', '| at | the server answered |', '|---:|---|');
    for (const t of outcome.timeline) {
        if (t.dropped)
            lines.push(`| \u2026 | *${t.dropped} change${t.dropped === 1 ? '' : 's'} left out* |`);
        lines.push(`| ${(0,clock/* formatDuration */.a3)(t.elapsedMs)} | ${t.lost ? '\u26a0\ufe0f stopped answering (crashed or restarting?): ' : ''}${(0,markdown/* cell */.Hn)((0,markdown/* mdText */.bC)((0,answer_report/* answerWords */.G)(t.answer).summary))} |`);
    }
    const profile = outcome.profile;
    for (const warning of [profile?.regression, profile?.throughputRegression, profile?.drift])
        if (warning !== undefined)
            lines.push('', `> \u26a0\ufe0f ${(0,markdown/* cell */.Hn)((0,markdown/* mdText */.bC)(warning))}`);
    if (profile !== undefined && profile.phases.length > 0)
        lines.push('', (0,profile_report/* phaseMarkdown */.$P)(profile.phases, profile.engineLabel ?? 'Server', profile.usualPhaseSeconds).trimEnd());
    if (server?.env !== undefined || server?.envUnreadable) {
        lines.push('', '#### Server environment', '', `Of ${(0,markdown/* mdText */.bC)((0,progress/* envWhose */.Gq)(server))}.`, '');
        const value = (e) => e === undefined || e.value === undefined ? '*not set*' : (0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(clipText(e.value, MAX_ENV_VALUE_CHARS)));
        const launched = server.launchedEnv;
        if (server.envUnreadable)
            lines.push((0,progress/* envUnreadableText */._s)(server));
        else if (launched?.env === undefined || launched.differs.length === 0)
            lines.push('| variable | value |', '|---|---|', ...(server.env ?? []).map((e) => `| ${(0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(e.name))} | ${value(e)} |`));
        else
            lines.push(`| variable | the server (${server.envPid}) | the launched process (${launched.pid}) |`, '|---|---|---|', ...(server.env ?? []).map((e) => `| ${launched.differs.includes(e.name) ? '\u26a0\ufe0f ' : ''}${(0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(e.name))} | ${value(e)} | ${value(launched.env?.find((l) => l.name === e.name))} |`), 
            // set in the launched process only: no row of the server's report names it
            ...launched.env
                .filter((l) => l.value !== undefined && !(server.env ?? []).some((e) => e.name === l.name))
                .map((l) => `| \u26a0\ufe0f ${(0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(l.name))} | *not set* | ${value(l)} |`));
        if (launched !== undefined)
            lines.push('', (0,markdown/* mdText */.bC)((0,progress/* envDiffersText */.Or)(server).replace(/ The launched process has:$/, '')));
    }
    return capBytes(`${lines.join('\n')}\n`, MAX_SUMMARY_BYTES);
}
/** A failure's cause, first in its summary: the reason, the failure message (fatal line, last answer), the log's tail. */
function causeLines(outcome, ctx) {
    if (outcome.ready)
        return [];
    const lines = [`**\u274c Not ready (${outcome.reason})**`, '', (0,markdown/* fenced */.OF)((0,failure/* failureMessage */.o)(outcome, ctx)), ''];
    const server = outcome.server;
    if (server?.logTail !== undefined) {
        const tail = lastChars(server.logTail.map((l) => `${l.number}: ${l.text}`), MAX_TAIL_CHARS);
        lines.push(`#### ${(0,markdown/* mdText */.bC)((0,markdown/* logTailTitle */.Nn)(server.logTail, server.logFile))}`, '', (0,markdown/* fenced */.OF)(tail.join('\n')), '');
    }
    return lines;
}
/** The last lines that fit in `max` characters together. */
function lastChars(lines, max) {
    let total = 0;
    let i = lines.length;
    while (i > 0 && total + lines[i - 1].length + 1 <= max)
        total += lines[--i].length + 1;
    return lines.slice(i);
}
const clipText = (text, max) => (text.length > max ? `${text.slice(0, max)}\u2026` : text);
/** The text cut at a line to fit in `max` UTF-8 bytes, saying so. */
function capBytes(text, max) {
    if (Buffer.byteLength(text) <= max)
        return text;
    const cut = Buffer.from(text)
        .subarray(0, max - 200)
        .toString('utf8');
    return `${cut.slice(0, cut.lastIndexOf('\n') + 1)}\n*(the rest of this summary is left out: GitHub takes at most 1 MiB)*\n`;
}

// EXTERNAL MODULE: ./src/history/store.ts
var store = __webpack_require__(4689);
;// CONCATENATED MODULE: ./src/action/after-first-probe.ts
/**
 * What the action loads once its first probe is on its way (see src/wait/first-probe.ts): the gate, the
 * conclusion and the job summary, most of the action's own code. One module, so that the bundle has one chunk for
 * them.
 */







/***/ }),

/***/ 1995:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ig: () => (/* binding */ clockSeconds),
/* harmony export */   Jn: () => (/* binding */ tookSeconds),
/* harmony export */   L4: () => (/* binding */ ENGINE_LOGS),
/* harmony export */   LE: () => (/* binding */ phaseMarkers),
/* harmony export */   NN: () => (/* binding */ engineLog),
/* harmony export */   Pq: () => (/* binding */ engineOfModelList),
/* harmony export */   U1: () => (/* binding */ engineOfLine),
/* harmony export */   Zs: () => (/* binding */ stampOf)
/* harmony export */ });
/* unused harmony export knowsReadyLine */
/* harmony import */ var _engine_record_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8823);
/* harmony import */ var _index_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9221);
/**
 * Reading what model servers print while they start, from each engine's record: which engine a line names, the
 * time stamp in a line, each engine's phases, its ready line and its fatal lines. __tests__/fixtures/logs holds a
 * recorded startup of each engine that these are tested against. Line numbers in `[file.py:NNN]` prefixes change
 * every release, so no pattern depends on them.
 */


const ENGINE_LOGS = _index_js__WEBPACK_IMPORTED_MODULE_1__/* .ENGINE_RECORDS */ .qp.map((r) => ({
    engine: r.name,
    label: r.label,
    ...r.log
}));
const engineLog = (engine) => ENGINE_LOGS.find((e) => e.engine === engine);
/** Its startup phases, in the order the engine goes through them. */
const phaseMarkers = (engine) => _index_js__WEBPACK_IMPORTED_MODULE_1__/* .ENGINES */ .ug[engine].log.phases;
/** Whether the engine's log has a known ready line: without one, the log cannot tell the schedule when to probe. */
const knowsReadyLine = (engine) => ENGINES[engine].log.ready !== NO_LINE;
/** The engine whose own lines these are, from one line; undefined when the line is not particular to one. */
function engineOfLine(line) {
    return _index_js__WEBPACK_IMPORTED_MODULE_1__/* .LOG_DETECTION_ORDER */ .gs.find((e) => _index_js__WEBPACK_IMPORTED_MODULE_1__/* .ENGINES */ .ug[e].log.signature.test(line));
}
/** The engine from a `/v1/models` body's `owned_by` (vLLM, SGLang, llama.cpp and Triton's OpenAI front end say so). */
function engineOfModelList(json) {
    const data = json?.data;
    if (!Array.isArray(data))
        return undefined;
    for (const entry of data) {
        const owner = entry?.owned_by;
        const found = _index_js__WEBPACK_IMPORTED_MODULE_1__/* .ENGINE_RECORDS */ .qp.find((r) => r.ownedBy !== undefined && r.ownedBy === owner);
        if (found)
            return found.name;
    }
    return undefined;
}
/** The engine's stamp in a line, as milliseconds on the stamp's own scale. */
function stampOf(log, line) {
    const g = log.stamp?.exec(line)?.groups;
    if (g === undefined)
        return undefined;
    const n = (v) => (v === undefined ? 0 : Number(v));
    const fraction = g.f === undefined ? n(g.ms) + n(g.us) / 1000 : Number(`0.${g.f}`) * 1000;
    return (Date.UTC(g.Y === undefined ? 2000 : n(g.Y), g.M === undefined ? 0 : n(g.M) - 1, g.D === undefined ? 1 : n(g.D), n(g.h), n(g.m), n(g.s)) + fraction);
}
const UNIT_SECONDS = { s: 1, ms: 1e-3, \u00b5s: 1e-6, ns: 1e-9 };
/** The seconds in a `took` match. */
const tookSeconds = (groups) => Number(groups.took) * UNIT_SECONDS[groups.unit ?? 's'];
/** tqdm's `mm:ss` or `h:mm:ss` in seconds. */
const clockSeconds = (text) => text.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);


/***/ }),

/***/ 2285:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Eu: () => (/* binding */ WORDED_ERRORS),
/* harmony export */   Rh: () => (/* binding */ WORDED_PROXY_ERRORS),
/* harmony export */   eA: () => (/* binding */ NAMED_ID_CHARS),
/* harmony export */   pG: () => (/* binding */ expectation)
/* harmony export */ });
/** What an answer must be for these settings to call it ready. */
const expectation = (s) => ({
    model: s.model,
    match: s.match,
    matchRegex: s.matchRegex,
    status: s.status,
    modelMatch: s.modelMatch
});
/** A listed id as an answer's words name it: at most this many characters. */
const NAMED_ID_CHARS = 200;
/** The error codes told in words of their own; an error with another code is told by its message (`said`). */
const WORDED_ERRORS = [
    'ECONNREFUSED',
    'ECONNRESET',
    'UND_ERR_SOCKET',
    'EPIPE',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ETIMEDOUT',
    'UND_ERR_CONNECT_TIMEOUT',
    'HPE_INVALID_CONSTANT',
    'TOO_MANY_REDIRECTS',
    'BAD_REDIRECT'
];
/** The codes of a proxy's failed connection (`PROXY_<code>`, see the probe) told in words of their own. */
const WORDED_PROXY_ERRORS = [
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ETIMEDOUT',
    'UND_ERR_CONNECT_TIMEOUT',
    'CLOSED'
];


/***/ }),

/***/ 5464:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   So: () => (/* binding */ isMasked),
/* harmony export */   YS: () => (/* binding */ historySecretKey),
/* harmony export */   rT: () => (/* binding */ maskedRecord),
/* harmony export */   uA: () => (/* binding */ MASKED)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _runtime_own_files_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(730);
/**
 * A credential in the history is never its value: `env-report` masks it, and where the history must tell that it
 * changed between runs (drift), it keeps a keyed hash of it, HMAC-SHA-256 under a random key of this history's own
 * (`<history>.key`, 32 random bytes, mode 0600, created exclusively beside it on first use). Without the key a
 * hash cannot be tested against guesses (a short password would otherwise fall to a dictionary), and one history
 * copied elsewhere (an artifact, a CSV export) says nothing about the same password in another.
 */


/** How a masked value starts in the history: `***` alone (no key), or `*** hmac:<16 hex>`. */
const MASKED = '***';
const KEY_HEX = 64;
/** This history's key, made on first use; undefined when it cannot be made or read (a hash is then not kept). */
function historySecretKey(historyPath) {
    const path = `${historyPath}.key`;
    const { randomBytes } = process.getBuiltinModule('node:crypto');
    try {
        const fd = (0,_runtime_own_files_js__WEBPACK_IMPORTED_MODULE_1__/* .createOwn */ .pP)(path, 0o600);
        const hex = randomBytes(KEY_HEX / 2).toString('hex');
        try {
            (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.writeSync)(fd, hex);
        }
        finally {
            (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(fd);
        }
        return Buffer.from(hex, 'hex');
    }
    catch (e) {
        if (e.code !== 'EEXIST')
            return undefined;
    }
    try {
        const fd = (0,_runtime_own_files_js__WEBPACK_IMPORTED_MODULE_1__/* .openOwn */ .$U)(path, node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_RDONLY);
        const buffer = Buffer.alloc(KEY_HEX + 1);
        let got;
        try {
            got = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readSync)(fd, buffer, 0, buffer.length, 0);
        }
        finally {
            (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(fd);
        }
        const hex = buffer.subarray(0, got).toString('latin1');
        // one being written by another process right now, or not ours: no hash this run
        return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
    }
    catch {
        return undefined;
    }
}
/** What the history keeps of a credential: the mask, and its keyed hash when there is a key. */
function maskedRecord(value, key) {
    if (key === undefined)
        return MASKED;
    const hash = process.getBuiltinModule('node:crypto').createHmac('sha256', key).update(value).digest('hex');
    return `${MASKED} hmac:${hash.slice(0, 16)}`;
}
/** A value the history keeps masked (a credential): compared by its hash, never shown. */
const isMasked = (value) => value !== undefined && value.startsWith(MASKED);


/***/ }),

/***/ 2899:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   JZ: () => (/* binding */ median),
/* harmony export */   cC: () => (/* binding */ usualStartup),
/* harmony export */   pT: () => (/* binding */ envDrift),
/* harmony export */   y8: () => (/* binding */ regression),
/* harmony export */   yV: () => (/* binding */ throughputRegression)
/* harmony export */ });
/* harmony import */ var _fingerprint_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5464);
/* harmony import */ var _limits_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6138);


const secondsOf = (r) => r.startupSeconds ?? r.elapsedSeconds;
function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
/** What the last MEDIAN_OF ready runs took; undefined without any. */
function usualStartup(earlier) {
    const ready = earlier.filter((r) => r.ready).slice(-_limits_js__WEBPACK_IMPORTED_MODULE_1__/* .MEDIAN_OF */ .t);
    if (ready.length === 0)
        return undefined;
    const names = new Set(ready.flatMap((r) => r.phases.map((p) => p.name)));
    const phaseSeconds = new Map([...names].map((name) => [
        name,
        median(ready.flatMap((r) => r.phases.filter((p) => p.name === name).map((p) => p.seconds)))
    ]));
    const answering = ready.flatMap((r) => (r.answeringSeconds === undefined ? [] : [r.answeringSeconds]));
    return {
        totalSeconds: median(ready.map(secondsOf)),
        ...(answering.length === 0 ? {} : { answeringSeconds: median(answering) }),
        phaseSeconds,
        order: ready[ready.length - 1].phases.map((p) => p.name),
        runs: ready.length
    };
}
/** This ready run against the median of the earlier ready runs; undefined when there is nothing to compare. */
function regression(earlier, run) {
    const usual = usualStartup(earlier);
    if (!run.ready || usual === undefined || usual.totalSeconds <= 0)
        return undefined;
    const seconds = secondsOf(run);
    let grewMost;
    for (const p of run.phases) {
        const before = usual.phaseSeconds.get(p.name);
        if (before !== undefined &&
            p.seconds - before > 0 &&
            p.seconds - before > (grewMost ? grewMost.seconds - grewMost.usual : 0)) {
            grewMost = { name: p.name, seconds: p.seconds, usual: before };
        }
    }
    const percent = Math.round(((seconds - usual.totalSeconds) / usual.totalSeconds) * 1000) / 10;
    return { expectedSeconds: usual.totalSeconds, seconds, percent, runs: usual.runs, grewMost };
}
/** The variables whose value differs from the previous run with the same `env-report`. */
function envDrift(earlier, run) {
    if (run.env === undefined)
        return [];
    const comparable = earlier.filter((r) => r.env !== undefined && r.envReport === run.envReport);
    const previous = comparable[comparable.length - 1]?.env;
    if (previous === undefined)
        return [];
    const now = run.env;
    const names = [...new Set([...Object.keys(previous), ...Object.keys(now)])].sort();
    // a credential masked without a hash (no key, or an older record) cannot be compared: no drift is told for it
    const unknown = (v) => v === _fingerprint_js__WEBPACK_IMPORTED_MODULE_0__/* .MASKED */ .uA;
    return names
        .filter((name) => previous[name] !== now[name] && !unknown(previous[name]) && !unknown(now[name]))
        .map((name) => {
        let runs = 0;
        for (let i = comparable.length - 1; i >= 0 && comparable[i].env?.[name] === previous[name]; i--)
            runs++;
        const secret = (0,_fingerprint_js__WEBPACK_IMPORTED_MODULE_0__/* .isMasked */ .So)(previous[name]) || (0,_fingerprint_js__WEBPACK_IMPORTED_MODULE_0__/* .isMasked */ .So)(now[name]);
        return { name, was: previous[name], now: now[name], runs, ...(secret ? { secret: true } : {}) };
    });
}
/**
 * This run's smoke-test decode rate against the median of the last MEDIAN_OF ready runs that measured one with as
 * many tokens a request; undefined when there is nothing to compare.
 */
function throughputRegression(earlier, run) {
    const now = run.decodeTokensPerSecond;
    if (!run.ready || now === undefined)
        return undefined;
    const rates = earlier
        .filter((r) => r.ready && r.decodeTokensPerSecond !== undefined && r.smokeTokens === run.smokeTokens)
        .slice(-_limits_js__WEBPACK_IMPORTED_MODULE_1__/* .MEDIAN_OF */ .t)
        .map((r) => r.decodeTokensPerSecond);
    if (rates.length === 0)
        return undefined;
    const usual = median(rates);
    if (usual <= 0)
        return undefined;
    const percentBelow = Math.round(((usual - now) / usual) * 1000) / 10;
    return { usual, now, percentBelow, runs: rates.length, drift: envDrift(earlier, run) };
}


/***/ }),

/***/ 4689:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Lu: () => (/* binding */ readHistory),
/* harmony export */   OI: () => (/* binding */ prepareHistory),
/* harmony export */   Oe: () => (/* binding */ defaultHistoryFile),
/* harmony export */   Ox: () => (/* binding */ historyKey),
/* harmony export */   ah: () => (/* binding */ appendRun)
/* harmony export */ });
/* unused harmony exports MAX_LINE_BYTES, parseHistory, runLine, trimHistory */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _runtime_own_files_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(730);
/* harmony import */ var _limits_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6138);
/**
 * Earlier runs, one JSON line per finished wait, in a file shared by every job on a runner: reading it (skipping
 * lines it cannot read), appending one line atomically, and trimming each key to its last runs (comparing a run
 * with the runs before it is stats.ts's).
 * Imports only Node's own modules and runtime/own-files.ts, so that tests can run it in several plain child
 * processes at once. Every write is to our own file only: no symbolic link is followed (the history, its lock, the
 * trim's temporary file), and the temporary file has a random name, created exclusively.
 */




/**
 * One line is written with one `write` on a file opened with O_APPEND, which the kernel appends whole; it stays
 * under PIPE_BUF (4 KiB), the size POSIX guarantees for atomic pipe writes, so it holds on any file system too.
 */
const MAX_LINE_BYTES = 4096;
/** Only the end of a larger file is read (several thousand runs). */
const MAX_READ_BYTES = 8 * 1024 * 1024;
/** A lock older than this was left by a process that died while holding it. */
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 2_000;
/** Where history lives by default: under the runner's tool cache (kept between jobs on self-hosted runners) or the user's cache. */
function defaultHistoryFile(env, frontEnd) {
    if (frontEnd === 'action') {
        return env.RUNNER_TOOL_CACHE
            ? { path: (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(env.RUNNER_TOOL_CACHE, 'wait-for-model', 'history.jsonl') }
            : { notice: 'History is off: RUNNER_TOOL_CACHE is not set; give "history-file" to keep it elsewhere.' };
    }
    const base = env.XDG_CACHE_HOME || (env.HOME ? (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(env.HOME, '.cache') : undefined);
    return base
        ? { path: (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(base, 'wait-for-model', 'history.jsonl') }
        : { notice: 'History is off: neither XDG_CACHE_HOME nor HOME is set; give --history-file to keep it elsewhere.' };
}
/** The default key: the endpoint, the model and the start command, hashed so that no secret in them lands in the file. */
function historyKey(url, model, start) {
    // node:crypto is loaded only for a history that is on: 5 ms and 3 MB on Node 24
    return process
        .getBuiltinModule('node:crypto')
        .createHash('sha256')
        .update(JSON.stringify([url, model ?? '', start ?? '']))
        .digest('hex')
        .slice(0, 16);
}
/** Opens the history file, only if it is a regular file and not a symbolic link (runtime/own-files.ts). */
const openRegular = (path, flags) => (0,_runtime_own_files_js__WEBPACK_IMPORTED_MODULE_2__/* .openOwn */ .$U)(path, flags);
const APPEND = node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_WRONLY | node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_APPEND | node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_CREAT;
/** Makes sure the file can be appended to; a reason in words when it cannot (history is then off). */
function prepareHistory(path) {
    try {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.mkdirSync)((0,node_path__WEBPACK_IMPORTED_MODULE_1__.dirname)(path), { recursive: true });
        const existing = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.lstatSync)(path, { throwIfNoEntry: false });
        if (existing?.isSymbolicLink())
            throw new _runtime_own_files_js__WEBPACK_IMPORTED_MODULE_2__/* .SymlinkRefused */ .CK(path);
        if (existing !== undefined && !existing.isFile())
            throw new Error('not a regular file');
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(openRegular(path, APPEND));
        return undefined;
    }
    catch (e) {
        // the message of a refused symbolic link names the path already
        if (e instanceof _runtime_own_files_js__WEBPACK_IMPORTED_MODULE_2__/* .SymlinkRefused */ .CK)
            return `History is off: ${e.message}.`;
        return `History is off: cannot write ${path} (${e.message}).`;
    }
}
function readHistory(path) {
    let text;
    try {
        text = readTail(path);
    }
    catch (e) {
        if (e.code === 'ENOENT')
            return { runs: [], skipped: 0 };
        throw e;
    }
    return parseHistory(text);
}
function parseHistory(text) {
    const runs = [];
    let skipped = 0;
    for (const line of text.split('\n')) {
        if (line.trim() === '')
            continue;
        const run = parseRun(line);
        if (run === undefined)
            skipped++;
        else
            runs.push(run);
    }
    return { runs, skipped };
}
/**
 * A figure the history may use: a finite number, not negative, and not beyond what any wait can take (a line
 * holding 1e309 reads as Infinity, -1e308 as a negative time: either would make every median and regression
 * check that uses it Infinity or NaN, and so switch the check off without a word). Such a line is skipped like
 * an unreadable one, and the skip is warned of.
 */
const MAX_SECONDS = 366 * 24 * 3600;
const plausibleSeconds = (n) => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= MAX_SECONDS;
const plausibleFigure = (n) => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1e12;
function parseRun(line) {
    let r;
    try {
        r = JSON.parse(line);
    }
    catch {
        return undefined;
    }
    const fine = typeof r === 'object' &&
        r !== null &&
        typeof r.key === 'string' &&
        typeof r.ready === 'boolean' &&
        plausibleSeconds(r.elapsedSeconds) &&
        [r.startupSeconds, r.answeringSeconds].every((n) => n === undefined || plausibleSeconds(n)) &&
        [r.ttftMs, r.decodeTokensPerSecond, r.smokeTokens].every((n) => n === undefined || plausibleFigure(n)) &&
        Array.isArray(r.phases) &&
        r.phases.every((p) => typeof p?.name === 'string' && plausibleSeconds(p?.seconds)) &&
        (r.env === undefined ||
            (typeof r.env === 'object' && r.env !== null && Object.values(r.env).every((v) => typeof v === 'string')));
    return fine ? r : undefined;
}
function readTail(path) {
    const fd = openRegular(path, node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_RDONLY);
    try {
        const size = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.fstatSync)(fd).size;
        const length = Math.min(size, MAX_READ_BYTES);
        const buffer = Buffer.alloc(length);
        let got = 0;
        while (got < length) {
            const n = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readSync)(fd, buffer, got, length - got, size - length + got);
            if (n === 0)
                break;
            got += n;
        }
        const text = buffer.subarray(0, got).toString('utf8');
        // Started mid-file: the first line is cut.
        return length < size ? text.slice(text.indexOf('\n') + 1) : text;
    }
    finally {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(fd);
    }
}
/** The line for a run, shrunk to fit MAX_LINE_BYTES (long values cut, then phases, then the environment dropped). */
function runLine(run) {
    const attempts = [
        run,
        { ...run, env: run.env && Object.fromEntries(Object.entries(run.env).map(([k, v]) => [k, v.slice(0, 200)])) },
        {
            ...run,
            env: run.env && Object.fromEntries(Object.entries(run.env).map(([k, v]) => [k, v.slice(0, 200)])),
            phases: run.phases.slice(0, 30)
        },
        { ...run, env: undefined, envReport: undefined, phases: run.phases.slice(0, 30) }
    ];
    for (const attempt of attempts) {
        const line = `${JSON.stringify(attempt)}\n`;
        if (Buffer.byteLength(line) <= MAX_LINE_BYTES)
            return line;
    }
    return undefined;
}
/**
 * Appends one run with a single write (atomic with O_APPEND), holding the file's lock so that a trim in another
 * process cannot drop it; then trims the run's key to its last `keep` runs when it has more, under the same lock.
 * Waits for the lock at most `lockWaitMs` (the time left before the wait's deadline, and never over 2 s): without
 * it, the line is appended all the same and the trim left for later. The wait sleeps on timers, not blocking the
 * process, and `signal` ends it at once: a cancelled run is not recorded (a job given up on is no run to learn from).
 */
async function appendRun(path, run, { keep = _limits_js__WEBPACK_IMPORTED_MODULE_3__/* .KEEP_RUNS */ .T, lockWaitMs = LOCK_WAIT_MS, signal } = {}) {
    const line = runLine(run);
    if (line === undefined)
        return 'too-long';
    const lock = await takeLock(path, Date.now() + Math.min(lockWaitMs, LOCK_WAIT_MS), signal);
    try {
        if (lock === 'cancelled' || signal?.aborted)
            return 'cancelled';
        const fd = openRegular(path, APPEND);
        try {
            (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.writeSync)(fd, line);
        }
        finally {
            (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(fd);
        }
        if (lock === undefined)
            return 'appended';
        const kept = readHistory(path).runs.filter((r) => r.key === run.key).length;
        if (kept > keep)
            trimLocked(path, keep);
        return 'appended';
    }
    finally {
        if (typeof lock === 'number')
            releaseLock(path, lock);
    }
}
/**
 * Keeps the last `keep` runs of every key (and drops unreadable lines): the file is rewritten to a temporary file
 * and renamed over the old one under the lock, which appenders take too, so no run appended meanwhile is lost.
 * Without the lock (another process holds it too long) it leaves the file as it is.
 */
function trimHistory(path, keep = KEEP_RUNS, lockUntil = Date.now() + LOCK_WAIT_MS) {
    withLock(path, lockUntil, (locked) => {
        if (locked)
            trimLocked(path, keep);
    });
}
/** The trim itself, the lock held by the caller. */
function trimLocked(path, keep) {
    const { runs } = parseHistory(readTail(path));
    const seen = new Map();
    const kept = [];
    for (let i = runs.length - 1; i >= 0; i--) {
        const n = seen.get(runs[i].key) ?? 0;
        if (n < keep)
            kept.push(runs[i]);
        seen.set(runs[i].key, n + 1);
    }
    const text = kept
        .reverse()
        .map((r) => JSON.stringify(r) + '\n')
        .join('');
    // Under a random name, created exclusively: a name another user can guess is a name they can plant a link at.
    const old = openRegular(path, node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_RDONLY);
    const mode = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.fstatSync)(old).mode & 0o777;
    (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(old);
    const { temp, fd } = (0,_runtime_own_files_js__WEBPACK_IMPORTED_MODULE_2__/* .createTempBeside */ .F)(path, mode);
    try {
        try {
            const bytes = Buffer.from(text);
            for (let at = 0; at < bytes.length;)
                at += (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.writeSync)(fd, bytes, at);
        }
        finally {
            (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(fd);
        }
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.renameSync)(temp, path);
    }
    catch (e) {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.unlinkSync)(temp);
        throw e;
    }
}
/**
 * Runs `fn` holding `<path>.lock` (created exclusively); still without it at `deadline`, runs `fn(false)` anyway.
 * Real time (Date.now), not the wait's clock: the lock is shared with other processes and aged by the file
 * system's modification times, which only the real clock compares with. Synchronous (`history trim` and tests);
 * the wait's own append takes the lock with takeLock, which a cancel can end.
 */
function withLock(path, deadline, fn) {
    let fd;
    while ((fd = tryLock(path)) === 'busy' && Date.now() < deadline)
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, LOCK_POLL_MS);
    const held = typeof fd === 'number' ? fd : undefined;
    try {
        return fn(held !== undefined);
    }
    finally {
        if (held !== undefined)
            releaseLock(path, held);
    }
}
/** How often a held lock is looked at again. */
const LOCK_POLL_MS = 2;
/**
 * Takes `<path>.lock`, trying again every LOCK_POLL_MS on timers until `deadline` (then undefined: not held), or
 * until `signal` aborts (then `cancelled`, at once: the abort wakes the sleep).
 */
async function takeLock(path, deadline, signal) {
    for (;;) {
        if (signal?.aborted)
            return 'cancelled';
        const fd = tryLock(path);
        if (fd !== 'busy')
            return fd;
        const left = deadline - Date.now();
        if (left <= 0)
            return undefined;
        await sleep(Math.min(LOCK_POLL_MS, left), signal);
    }
}
/** The lock's descriptor; `busy` while another process holds it; undefined when it cannot be taken at all. */
function tryLock(path) {
    const lock = `${path}.lock`;
    for (;;) {
        try {
            return (0,_runtime_own_files_js__WEBPACK_IMPORTED_MODULE_2__/* .createOwn */ .pP)(lock);
        }
        catch (e) {
            if (e.code !== 'EEXIST')
                return undefined;
            if (!lockIsStale(lock))
                return 'busy';
        }
    }
}
function releaseLock(path, fd) {
    (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(fd);
    (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.unlinkSync)(`${path}.lock`);
}
/** A timer sleep that `signal` cuts short. */
function sleep(ms, signal) {
    return new Promise((resolve) => {
        const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done, { once: true });
    });
}
function lockIsStale(lock) {
    try {
        // lstat: the age of a planted link's target says nothing; unlinking removes the link itself, never its target
        if (Date.now() - (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.lstatSync)(lock).mtimeMs <= STALE_LOCK_MS)
            return false;
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.unlinkSync)(lock);
    }
    catch {
        // Gone already: free to try again.
    }
    return true;
}


/***/ }),

/***/ 9823:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  G: () => (/* binding */ answerWords),
  y: () => (/* binding */ someOf)
});

// EXTERNAL MODULE: ./src/facts/answer.ts
var facts_answer = __webpack_require__(2285);
// EXTERNAL MODULE: ./src/runtime/text.ts
var runtime_text = __webpack_require__(5369);
// EXTERNAL MODULE: ./src/http/probe.ts
var probe = __webpack_require__(242);
// EXTERNAL MODULE: ./src/report/lifecycle-report.ts
var lifecycle_report = __webpack_require__(7205);
// EXTERNAL MODULE: ./src/runtime/clock.ts
var clock = __webpack_require__(9842);
;// CONCATENATED MODULE: ./src/report/cannot-change-report.ts


const quoted = (ids) => ids
    .slice(0, 10)
    .map((id) => `"${(0,runtime_text/* clip */.$Q)(id, 200)}"`)
    .join(', ');
/** The words of a `load-failed`, `wrong-model` or `engine-dead` answer; undefined for any other answer. */
function cannotChangeWords(answer, listed) {
    if (answer.loadFailed !== undefined) {
        const { request, model, reason } = answer.loadFailed;
        const said = (0,runtime_text/* clip */.$Q)(reason, 500);
        return {
            summary: `${request}: "${model}" UNAVAILABLE: ${said}`,
            detail: `the engine says "${model}" failed to load (${request}: UNAVAILABLE): ${said}. Waiting will not load it`
        };
    }
    if (answer.wrongModel !== undefined) {
        const { model, serving, nearest, forMs } = answer.wrongModel;
        const near = nearest === undefined ? '' : ` (the nearest listed name is "${(0,runtime_text/* clip */.$Q)(nearest, 200)}")`;
        return {
            summary: `${listed()} \u2014 serves another model, not "${model}"`,
            detail: `the server serves ${quoted(serving)}, not "${model}"${near}, unchanged for ${(0,clock/* formatDuration */.a3)(forMs)}, ` +
                'and this engine serves only the models it was started with. Fix "model", or the model the server starts ' +
                'with ("wrong-model-after: 0" waits for the timeout instead)'
        };
    }
    if (answer.engineDead !== undefined) {
        const { request, by, status, count } = answer.engineDead;
        const what = by === 'health'
            ? `${request} answered ${status ?? 'an error'} after it had said ready`
            : `${request} answered the engine's own dead-engine error ${count ?? 3} times in a row` +
                (status === undefined ? '' : ` (HTTP ${status})`);
        return {
            summary: `${listed()} \u2014 the engine died: ${what}`,
            detail: `the engine's core died: ${what}. It will not recover by waiting: see the server's log, and restart it`
        };
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/report/answer-report.ts
/** An answer in words: its one-line summary (the log, the timeline) and its detail (why it is not ready). */





const ERROR_WORDS = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset by the server',
    UND_ERR_SOCKET: 'connection closed by the server before a complete answer',
    EPIPE: 'connection closed by the server',
    ENOTFOUND: 'host not found (DNS)',
    EAI_AGAIN: 'host name lookup failed for now (DNS)',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ETIMEDOUT: 'connection attempt timed out',
    UND_ERR_CONNECT_TIMEOUT: 'connection attempt timed out',
    HPE_INVALID_CONSTANT: 'the answer is not valid HTTP',
    TOO_MANY_REDIRECTS: `more than ${probe/* MAX_REDIRECTS */.NX} redirects (a redirect loop?)`,
    BAD_REDIRECT: 'redirected to a URL that is not http:// or https://'
};
/** What a proxy did when the connection to it failed (`PROXY_<code>`, see the probe). */
const PROXY_WORDS = {
    ECONNREFUSED: 'refused the connection',
    ENOTFOUND: 'was not found (DNS)',
    EAI_AGAIN: 'could not be looked up for now (DNS)',
    EHOSTUNREACH: 'is unreachable',
    ENETUNREACH: 'is on an unreachable network',
    ETIMEDOUT: 'did not accept the connection in time',
    UND_ERR_CONNECT_TIMEOUT: 'did not accept the connection in time',
    CLOSED: 'closed the connection before the tunnel was open'
};
/**
 * The words of an error code, or of a proxy's (`viaProxy`: a `PROXY_<code>`, said after "the proxy \u2026");
 * undefined for a code without words of its own.
 */
function codeWords(code, viaProxy) {
    // a code the tables do not name (facts/answer.ts lists those they do) has no words of its own
    const errors = ERROR_WORDS;
    const proxies = PROXY_WORDS;
    if (!viaProxy)
        return errors[code];
    const own = code.slice('PROXY_'.length);
    return proxies[own] ?? (errors[own] === undefined ? undefined : `failed: ${errors[own]}`);
}
/** The first `max` ids, then how many more of `total`. */
function someOf(ids, max, total = ids.length) {
    const named = ids.slice(0, max).map((id) => (0,runtime_text/* clip */.$Q)(id, facts_answer/* NAMED_ID_CHARS */.eA));
    return total > named.length ? `${named.join(', ')} and ${total - named.length} more` : named.join(', ');
}
/** A generation request that produced a token: its arrival is the news, not its body. */
const generatedWords = (request) => ({ summary: `${request} generated`, detail: '' });
/** An answer in words: the same words for the same answer (it names the model, the text or the pattern it lacks). */
function answerWords(answer) {
    const stopped = cannotChangeWords(answer, () => listedWords(answer));
    if (stopped !== undefined)
        return stopped;
    if (answer.engineReadiness !== undefined)
        return withEngineReadinessWords(answer);
    if (answer.generation !== undefined)
        return withGenerationWords(answer);
    if (answer.error !== undefined)
        return errorWords(answer, answer.error);
    const status = `HTTP ${answer.status}`;
    const said = answer.said ? ` ${answer.said}` : '';
    if (answer.state === 'fatal' && answer.ambiguous === undefined) {
        return {
            summary: `${status}${said}`,
            detail: `the server refused the request as ${answer.status === 401 ? 'unauthenticated' : 'forbidden'}: ` +
                'set "api-key" to the key the server was started with (sent as "Authorization: Bearer <key>"), ' +
                'or pass the header it expects with "headers"'
        };
    }
    if (answer.state === 'waiting' && answer.missing === undefined)
        return { summary: `${status}${said}`, detail: `${status} is not an accepted status` };
    if (answer.missing?.what === 'completion') {
        return {
            summary: `${status} ${answer.said ?? 'with an empty body'} \u2014 not a completion`,
            detail: `the answer is not a ${answer.missing.route} completion`
        };
    }
    const { models } = answer;
    const listed = models === undefined
        ? ''
        : models.length === 0
            ? ', lists no models'
            : `, serving [${someOf(models, models.length, answer.modelCount)}]`;
    const summary = `${status}${listed || said}`;
    if (answer.ambiguous !== undefined) {
        const words = (0,lifecycle_report/* ambiguousModelText */.Bv)(answer.ambiguous.model, answer.ambiguous.candidates, answer.ambiguous.count);
        return { summary: `${summary} \u2014 ${words.summary}`, detail: words.detail };
    }
    if (answer.missing === undefined)
        return { summary, detail: '' };
    const why = missingWords(answer.missing, answer);
    return { summary: `${summary} \u2014 ${why}`, detail: why };
}
/** The one-line summary of the model list under a fatal answer built on it. */
const listedWords = (answer) => answerWords({
    ...answer,
    state: 'ready',
    wrongModel: undefined,
    engineDead: undefined,
    engineReadiness: undefined,
    generation: undefined
}).summary;
/** What a model list or body lacks (a generation answer that is no completion is told above, in its own words). */
function missingWords(missing, answer) {
    switch (missing.what) {
        case 'model-list':
            return `the answer is not a model list, so "${missing.model}" cannot be found in it${missing.truncated ? ' (body over 1 MiB, cut)' : ''}`;
        case 'model':
            if (missing.partial !== undefined)
                return `"${missing.model}" is not among the listed models ("${(0,runtime_text/* clip */.$Q)(missing.partial, facts_answer/* NAMED_ID_CHARS */.eA)}" contains it, which "model-match: exact" refuses)`;
            return answer.models?.length
                ? `"${missing.model}" is not among the listed models`
                : `"${missing.model}" is not listed yet`;
        case 'model-loaded':
            return `"${missing.id}" is listed but still loading (${missing.loading})`;
        case 'model-unloaded':
            return (0,lifecycle_report/* unloadedModelText */.$y)(missing.id);
        case 'match':
            return `the body does not contain "${missing.match}"`;
        case 'match-regex-in-time':
            return `${missing.pattern} ran out of time on the body (it backtracks too much: simplify "match-regex")`;
        case 'match-regex':
            return `the body does not match ${missing.pattern}`;
    }
}
function errorWords(answer, code) {
    if (answer.plainHttp !== undefined) {
        const to = answer.plainHttp.redirectedTo;
        const where = to === undefined ? 'the server' : `${new URL(to).host} (where the server redirected)`;
        return {
            summary: 'TLS error: the server answered in plain HTTP, not TLS',
            detail: `${where} speaks plain HTTP on this port, not HTTPS (${code}): ` +
                (to === undefined
                    ? 'use an http:// URL'
                    : `its redirect to ${to} is to a port without TLS: fix the redirect, or give the final address with http://`) +
                '; "ca-cert" and "insecure-tls" cannot help'
        };
    }
    if (answer.state === 'fatal' && answer.ambiguous === undefined) {
        return {
            summary: `TLS error: ${answer.said}`,
            detail: `the server's certificate was not accepted (${code}): ${answer.said}. ` +
                'Give its CA certificate with "ca-cert", or set "insecure-tls: true" to skip the check'
        };
    }
    if (code === 'TIMEOUT') {
        const summary = answer.status === undefined
            ? 'no answer (request timed out)'
            : `HTTP ${answer.status}, but the body did not arrive in time`;
        return { summary, detail: summary };
    }
    const viaProxy = answer.proxy !== undefined;
    const known = codeWords(code, viaProxy);
    const words = viaProxy
        ? `the proxy ${answer.proxy} ${known ?? `failed: ${answer.said}`}`
        : (known ?? `${answer.said} (${code})`);
    const summary = answer.status === undefined ? words : `HTTP ${answer.status}, then ${words}`;
    return { summary, detail: summary };
}
/** A listed model's answer with the engine's own readiness answer (SGLang's /health) that followed it. */
function withEngineReadinessWords(answer) {
    const { request, answer: engine } = answer.engineReadiness;
    const listed = answerWords({ ...answer, state: 'ready', engineReadiness: undefined }).summary;
    const said = answerWords(engine);
    const summary = `${listed} \u2014 ${request}: ${said.summary}`;
    return {
        summary,
        detail: engine.state === 'ready' ? '' : `the model is listed, but ${request} says not ready yet: ${said.summary}`
    };
}
/** A listed model's answer with the generation request that followed it. */
function withGenerationWords(answer) {
    const { request, answer: generation } = answer.generation;
    // The model was listed and ready when the generation request went out.
    const listed = answerWords({ ...answer, state: 'ready', generation: undefined }).summary;
    if (generation.state === 'ready')
        return { summary: `${listed} \u2014 ${generatedWords(request).summary}`, detail: '' };
    const said = answerWords(generation);
    return {
        summary: `${listed} \u2014 ${request}: ${said.summary}`,
        detail: answer.state === 'fatal'
            ? `${request}: ${said.detail}`
            : `the model is listed, but ${request} failed: ${said.summary}`
    };
}


/***/ }),

/***/ 2060:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   K: () => (/* binding */ probes),
/* harmony export */   u: () => (/* binding */ describeExpectation)
/* harmony export */ });
const probes = (n) => `${n} probe${n === 1 ? '' : 's'}`;
/** What readiness means for these settings, in words. */
function describeExpectation({ expect, url }, subject = url.href) {
    const parts = [
        `${subject} to answer with an accepted status (${expect.status.map(([lo, hi]) => (lo === hi ? lo : `${lo}-${hi}`)).join(',')})`
    ];
    if (expect.model !== undefined)
        parts.push(`list model "${expect.model}"`);
    if (expect.match !== undefined)
        parts.push(`contain "${expect.match}"`);
    if (expect.matchRegex !== undefined)
        parts.push(`match ${String(expect.matchRegex)}`);
    return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}


/***/ }),

/***/ 3304:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   o: () => (/* binding */ failureMessage)
/* harmony export */ });
/* harmony import */ var _answer_report_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9823);
/* harmony import */ var _expectation_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2060);
/* harmony import */ var _runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9842);
/** The failure: the message a wait that was not ready ends with. */



/** The message a failed wait ends with: what was expected, what the server last said, how long and how often. */
function failureMessage(outcome, ctx) {
    const last = outcome.last;
    const words = last && (0,_answer_report_js__WEBPACK_IMPORTED_MODULE_0__/* .answerWords */ .G)(last.answer);
    const waited = `${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(outcome.elapsedMs)} and ${(0,_expectation_js__WEBPACK_IMPORTED_MODULE_2__/* .probes */ .K)(outcome.attempts)}`;
    if (STOPPED_BY_ANSWER.includes(outcome.reason)) {
        return `Stopped after ${waited}: ${words?.detail ?? outcome.reason}.`;
    }
    if (outcome.reason === 'port-busy' || outcome.reason === 'gpu-busy') {
        return sentence(`Did not start the server: ${outcome.halt?.detail ?? outcome.reason}`);
    }
    if (outcome.halt) {
        // a cancel after the wait had found it ready (its smoke test cut short): it was ready, the run is not
        const before = last?.state === 'ready' ? '' : ', before the server was ready';
        const lines = [sentence(`Stopped after ${waited}${before}: ${outcome.halt.detail}`)];
        if (words !== undefined)
            lines.push(sentence(`Last answer: ${words.summary}`));
        return lines.join('\n');
    }
    const lines = [
        outcome.reason === 'generation-failed'
            ? sentence(`Timed out after ${waited} (timeout ${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(ctx.timeoutMs)}): ${words?.detail ?? 'the generation request failed'}`)
            : `Timed out after ${waited} (timeout ${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(ctx.timeoutMs)}) waiting for ${(0,_expectation_js__WEBPACK_IMPORTED_MODULE_2__/* .describeExpectation */ .u)(ctx)}.`
    ];
    if (last === undefined || words === undefined)
        return lines[0];
    lines.push(sentence(`Last answer: ${words.summary}`));
    if (last.models !== undefined && ctx.expect.model !== undefined) {
        lines.push(last.models.length
            ? `The server lists: ${(0,_answer_report_js__WEBPACK_IMPORTED_MODULE_0__/* .someOf */ .y)(last.models, 50, last.modelCount)}.`
            : 'The server lists no models.');
    }
    if (last.excerpt)
        lines.push(`Body (first 200 characters): ${last.excerpt}`);
    if (outcome.firstResponseMs === undefined)
        lines.push('The server never answered over HTTP.');
    return lines.join('\n');
}
/** Reasons an answer gives at once: the failure says what to do, not how long it waited for what. */
const STOPPED_BY_ANSWER = [
    'unauthorized',
    'tls',
    'ambiguous-model',
    'load-failed',
    'wrong-model',
    'engine-dead'
];
/** Ends text with a full stop unless it already ends a sentence (server messages often do). */
const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);


/***/ }),

/***/ 7205:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $y: () => (/* binding */ unloadedModelText),
/* harmony export */   BN: () => (/* binding */ gpuBusyText),
/* harmony export */   Bv: () => (/* binding */ ambiguousModelText),
/* harmony export */   Kq: () => (/* binding */ elsewhereText),
/* harmony export */   MT: () => (/* binding */ partialMatchText),
/* harmony export */   UC: () => (/* binding */ redirectText),
/* harmony export */   eR: () => (/* binding */ wrongServerText),
/* harmony export */   g7: () => (/* binding */ loadAskedText),
/* harmony export */   gu: () => (/* binding */ gpuUnavailableText),
/* harmony export */   m: () => (/* binding */ portBusyText),
/* harmony export */   oA: () => (/* binding */ engineReadinessRequest),
/* harmony export */   sB: () => (/* binding */ wakeAskedText),
/* harmony export */   y2: () => (/* binding */ dockerProxyText)
/* harmony export */ });
/* unused harmony exports stopLines, refusedStateText, NOTHING_TO_STOP, jobEndErrorText, jobEndSummaryErrorText, jobEndCancelledText, fleetMemberText, jobEndSummary */
/* harmony import */ var _runtime_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5369);


const list = (items) => items.map((i) => `"${i}"`).join(', ');
/** A `model` several listed ids contain, none of them exactly: stable words, so the summary is stable. */
function ambiguousModelText(model, candidates, count = candidates.length) {
    const more = count > candidates.length ? ` and ${count - candidates.length} more` : '';
    return {
        summary: `"${model}" fits ${count} listed models`,
        detail: `"${model}" fits ${count} listed models and is none of them exactly: ${list(candidates)}${more}. ` +
            'Give the exact id as "model" (an id ending with /<model> or equal to it ignoring case also counts as exact)'
    };
}
/** A `model` matched by a listed id that only contains it (`model-match: partial`): it may be another version. */
const partialMatchText = (model, id) => `"${model}" matched the listed id "${id}" only partly (the id contains it): make sure it is the model meant, ` +
    'give the exact id as "model", or set "model-match: exact" to refuse partial matches';
/** A model the server lists but loads only when asked (llama.cpp's router mode, LM Studio). */
const unloadedModelText = (id) => `"${id}" is listed but not loaded: the server loads it only when asked (set "load: true" to have it loaded)`;
const s1 = (seconds) => `${seconds.toFixed(1)}s`;
const pidList = (pids) => `${pids.length === 1 ? 'pid' : 'pids'} ${pids.join(', ')}`;
/** How a server was stopped (`wait-for-model stop`, the job-end step): what was sent, how it exited, its GPU memory. */
function stopLines(r) {
    if (r.outcome === 'refused')
        return [{ level: 'warning', text: refusedText(r.pid, r.refused) }];
    const lines = [];
    if (r.notOurs !== undefined)
        lines.push({ level: 'info', text: notOursText(r.pid, r.notOurs) });
    if (r.spared !== undefined)
        lines.push({ level: 'warning', text: `Left alone, as no stop may signal them: ${pidList(r.spared)}.` });
    if (r.outcome === 'not-running')
        return r.notOurs === undefined
            ? [
                ...lines,
                {
                    level: 'info',
                    text: `${r.container === undefined ? `Process ${r.pid}` : `The container ${r.container}`} is not running: nothing to stop.`
                }
            ]
            : lines;
    const what = r.container !== undefined
        ? `the container ${r.container} (${r.pids.length} process${r.pids.length === 1 ? '' : 'es'})`
        : r.scope === 'group'
            ? `the server's process group ${r.pid} (${r.pids.length} process${r.pids.length === 1 ? '' : 'es'})`
            : r.notOurs === undefined
                ? `the server ${r.pid} and its child processes (${r.pids.length} in all)`
                : `the server's processes that carry its run marker (${r.pids.length} in all)`;
    const how = r.exitCode !== undefined && r.exitCode !== null
        ? `, exit code ${r.exitCode}`
        : r.exitSignal
            ? `, ended by ${r.exitSignal}`
            : '';
    if (r.escaped !== undefined && r.notOurs === undefined)
        lines.push({
            level: 'info',
            text: `Also the server's processes that had left its process group (they carry its run marker): ${pidList(r.escaped)}.`
        });
    if (r.outcome === 'exited') {
        lines.push({
            level: 'info',
            text: r.signal === 'SIGKILL'
                ? r.cancelled
                    ? `Stopped ${what}: SIGTERM, then SIGKILL at once (the stop was cancelled); gone ${s1(r.secondsToExit ?? 0)} after SIGTERM${how}.`
                    : `Stopped ${what}: it did not exit after SIGTERM, so SIGKILL; gone ${s1(r.secondsToExit ?? 0)} after SIGTERM${how}.`
                : `Stopped ${what}: SIGTERM, gone after ${s1(r.secondsToExit ?? 0)}${how}.`
        });
    }
    else {
        lines.push({
            level: 'warning',
            text: `Could not stop ${what}: still running after SIGTERM and SIGKILL: ${pidList(r.survivors ?? [])}.`
        });
    }
    const g = r.gpu;
    if (g.kind === 'released')
        lines.push({
            level: 'info',
            text: `Its GPU memory (${g.mib > 0 ? `${g.mib} MiB` : 'an amount nvidia-smi does not show'}) was released ${s1(g.seconds)} after SIGTERM.`
        });
    else if (g.kind === 'held')
        lines.push({
            level: 'warning',
            text: `Its GPU memory was not released: ${g.mib > 0 ? `${g.heldMib} of ${g.mib} MiB` : 'an amount nvidia-smi does not show'} still held ${s1(g.seconds)} after SIGTERM` +
                `${g.pids.length ? ` (${pidList(g.pids)})` : ''}; the next job on this machine may run out of GPU memory.`
        });
    else if (g.kind === 'none')
        lines.push({ level: 'debug', text: 'Its processes held no GPU memory.' });
    else
        lines.push({ level: 'debug', text: `GPU memory not looked at (nvidia-smi: ${g.why}).` });
    return lines;
}
const SPARED_WORDS = {
    self: "is this step's own process",
    ancestor: "is an ancestor of this step's process (the runner's step, or the runner)",
    init: 'is pid 1 (init)',
    runner: "is one of the runner's own processes",
    'group-leader': 'leads the process group this step (or the runner) runs in'
};
/** The pid to stop is one no stop may signal. */
const refusedText = (pid, why) => `Refused to stop process ${pid}: it ${SPARED_WORDS[why ?? 'self']}. Nothing was signalled.`;
/** The pid the state names is no longer the server's. */
function notOursText(pid, id) {
    const why = id.kind === 'rebooted'
        ? 'the machine has booted since the server started'
        : id.kind === 'unchecked'
            ? 'there is no start time to check it by (no /proc where it started, or here)'
            : `it started at ${id.startTicks ?? '?'} clock ticks after boot, the server at ${id.expectedTicks}: the server has exited and its pid was reused`;
    return `Process ${pid} is not the server this job started (${why}): left alone, with its process group.`;
}
/** The job-end state holds a value the main step did not write. */
const refusedStateText = (e) => `Refused the job-end state, and signalled nothing: STATE_${e.stateName} is "${printable(e.value).slice(0, 80)}", ` +
    `not ${e.form} as the main step writes it.`;
/** `process 1234 (python -m vllm \u2026)`, or what can be said of a socket whose holder this user cannot see. */
function listenerText(l) {
    if (l.holders.length === 0)
        return `a process this user cannot see (listening on ${l.address}, socket inode ${l.inode})`;
    return l.holders.map((h) => `process ${h.pid}${h.command ? ` (${h.command})` : ''}`).join(' and ');
}
const holderPids = (listeners) => [
    ...new Set(listeners.flatMap((l) => l.holders.map((h) => h.pid)))
];
/** Before `start`: something already listens on the URL's port (a server an earlier job left behind). */
function portBusyText(owner) {
    const pids = holderPids(owner.listeners);
    return (`Port ${owner.port} is already in use by ${owner.listeners.map(listenerText).join('; ')}: the server "start" ` +
        'would launch could not listen there, and the one already there would answer the gate. ' +
        (pids.length
            ? `Stop it first (wait-for-model stop --pid ${pids[0]}, or kill ${pids.join(' ')}), `
            : 'Stop it first, ') +
        'or give the new server another port');
}
/** With `start` or `pid`: the port answers, but from a process that is not the watched server or its children. */
function wrongServerText(o, watchedPid, redirect) {
    return (`${redirect === undefined ? '' : `${redirectText(redirect)}: `}Port ${o.port} is answered by ${o.listeners.map(listenerText).join('; ')}, not by the server being watched ` +
        `(pid ${watchedPid}) or its child processes: an earlier server still holds the port, or the watched one ` +
        'listens elsewhere. Its answers say nothing about the server being waited for');
}
/** The origins only: a Location's path and query are the server's words, of any length. */
const redirectText = ({ from, to }) => `${from.origin} redirected to ${to.origin}`;
/** With `start` or `pid`: a local endpoint redirected to another machine, whose answer is not the watched server's. */
const elsewhereText = (redirect, watchedPid) => `${redirectText(redirect)}, which is not this machine: its answers say nothing about the server being watched ` +
    `(pid ${watchedPid}). Give the URL the server itself answers on, or set "port-check: false" for a proxy`;
/** Before `start`: other processes hold memory on the GPUs the server will use. */
function gpuBusyText(apps, gpus) {
    const where = (uuid) => {
        const gpu = gpus.find((g) => g.uuid === uuid);
        return gpu === undefined ? uuid : `GPU ${gpu.index}`;
    };
    const each = apps.map((a) => `pid ${a.pid} (${a.processName}) ${a.usedMiB === undefined ? 'an unknown amount' : `${a.usedMiB} MiB`} on ${where(a.gpuUuid)}`);
    return `Other processes hold memory on the GPUs the server will use: ${each.join('; ')}`;
}
/** The post step, when the main step left it no server to stop (none launched by `start`, or `stop: never`). */
const NOTHING_TO_STOP = 'No server to stop at the job end: none was launched by "start" with "stop: job-end".';
/** The post step could not stop the server (an error of its own, never the job's failure). */
const jobEndErrorText = (pid, message) => `Could not stop the server${pid === undefined ? '' : ` (pid ${pid})`} at the job end: ${message}`;
/** The server was stopped, but the job summary could not be written. */
const jobEndSummaryErrorText = (message) => `The server was stopped, but the job summary could not be written: ${message}`;
/** The job-end step was signalled (the runner cancelling it): it stopped the server without waiting any longer. */
const jobEndCancelledText = (signal) => `The job-end step was cancelled (${signal}): the server was sent SIGKILL at once if still running, ` +
    'and its GPU memory was not waited for.';
/** `server 3 of 8 (url line 3)`: which endpoint's server a job-end line is about. */
const fleetMemberText = (m) => `server ${m.n} of ${m.of} (url line ${m.n})`;
function jobEndSummary(end, cancelledBy, member) {
    const r = end.record;
    const g = r.gpu;
    const rows = [
        ...(cancelledBy === undefined ? [] : [['Cancelled', jobEndCancelledText(cancelledBy)]]),
        ['Server process', `pid ${r.pid} (${r.scope === 'group' ? 'its process group' : 'with its child processes'})`],
        [
            'Result',
            r.outcome === 'refused'
                ? `\u26a0\ufe0f refused: ${refusedText(r.pid, r.refused)}`
                : r.notOurs !== undefined && r.outcome === 'not-running'
                    ? `left alone: ${notOursText(r.pid, r.notOurs)}`
                    : r.outcome === 'not-running'
                        ? 'already gone'
                        : r.outcome === 'survived'
                            ? `\u26a0\ufe0f still running after SIGKILL: pid ${(r.survivors ?? []).join(', ')}`
                            : end.clean
                                ? '\u2705 stopped'
                                : '\u26a0\ufe0f stopped, not cleanly'
        ]
    ];
    if (r.signal !== undefined)
        rows.push(['Last signal sent', r.signal]);
    if (r.exitCode !== undefined && r.exitCode !== null)
        rows.push(['Exit code', String(r.exitCode)]);
    if (r.exitSignal)
        rows.push(['Ended by', r.exitSignal]);
    if (r.secondsToExit !== undefined)
        rows.push(['Gone after SIGTERM', `${s1(r.secondsToExit)}`]);
    if (g.kind === 'released') {
        rows.push(['GPU memory released after SIGTERM', s1(g.seconds)]);
        rows.push(['GPU memory released', g.mib > 0 ? `${g.mib} MiB` : 'an amount nvidia-smi does not show']);
    }
    else if (g.kind === 'held')
        rows.push(['GPU memory', `\u26a0\ufe0f ${g.heldMib} of ${g.mib} MiB still held after ${s1(g.seconds)}`]);
    else if (g.kind === 'none')
        rows.push(['GPU memory', 'none held']);
    else
        rows.push(['GPU memory', `not looked at (nvidia-smi: ${g.why})`]);
    const whose = member === undefined ? 'server' : fleetMemberText(member);
    const lines = [`### wait-for-model: ${whose} stopped at the job end`, '', '| | |', '|---|---|'];
    lines.push(...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`), '');
    if (end.logTail !== undefined) {
        lines.push(`#### ${logTailTitle(end.logTail, end.logFile)}`, '');
        lines.push(fenced(end.logTail.map((l) => `${l.number}: ${l.text}`).join('\n')), '');
    }
    return `${lines.join('\n')}\n`;
}
/** A debug line: the GPU pre-flight had no reading (a machine without GPUs is no reason to say more). */
const gpuUnavailableText = (why, detail) => `GPU check skipped: no reading from nvidia-smi (${why}${detail ? `: ${detail}` : ''}).`;
/** A debug line: the port is a container's, published by docker-proxy; whose container cannot be told from here. */
const dockerProxyText = (o, watchedPid) => `Port ${o.port} is held by docker-proxy (a container's published port), not by process ${watchedPid}: taken as ` +
    "the watched server's, since a container's sockets are not in this machine's network namespace.";
/** The engine's own readiness answer, as the log and the summary name it: `SGLang GET /health`. */
const engineReadinessRequest = (engine, url) => `${engine} GET ${url.pathname}`;
/** `load: true` and a sleeping engine (vLLM's sleep mode): the request that wakes it has gone out. */
const wakeAskedText = (engine, url) => `Asked ${engine} to wake up: POST ${url.pathname}`;
/** `load: true`: the request that asks the server to load the model has gone out. */
const loadAskedText = (url, model) => `Asked the server to load "${String(model)}": POST ${url.pathname}`;


/***/ }),

/***/ 4285:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Hn: () => (/* binding */ cell),
/* harmony export */   Nn: () => (/* binding */ logTailTitle),
/* harmony export */   OF: () => (/* binding */ fenced),
/* harmony export */   aY: () => (/* binding */ code),
/* harmony export */   bC: () => (/* binding */ mdText)
/* harmony export */ });
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');
/**
 * Text a server or a log wrote, as literal Markdown (before `cell`): no HTML (`<img>`), no emphasis, no code span,
 * no link or image, no autolink (`https://\u2026`, `www.\u2026`).
 */
function mdText(text) {
    return text
        .replace(/[\\`*_~[\]]/g, '\\$&')
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/:\/\//g, ':\\/\\/')
        .replace(/\b(www)\./gi, '$1\\.');
}
/** Text as code: a code span when it holds no backtick (nothing renders inside one), else as `mdText`. */
const code = (text) => (text.includes('`') ? mdText(text) : `\`${text}\``);
/** The title of a server log's last lines (the log, both job summaries). */
function logTailTitle(tail, file = 'the log') {
    return tail.length === 0 ? `${file} is empty` : `Last ${tail.length} line${tail.length === 1 ? '' : 's'} of ${file}`;
}
/** A code block whose fence no line of the text can close. */
function fenced(text) {
    const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(longest + 1);
    return `${fence}\n${text}\n${fence}`;
}


/***/ }),

/***/ 5468:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   V4: () => (/* binding */ outputs)
/* harmony export */ });
/* unused harmony exports OUTPUT_NAMES, typedOutputs */
/* harmony import */ var _runtime_clock_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9842);
/**
 * The outputs: every one of action.yml's outputs as the action sets it (a string: GitHub has no other kind), and as
 * `--json` prints them: a script reading JSON should get `"attempts": 3`, `"ready": true` and
 * `"models": ["a", "b"]`, not strings to parse again. The keys stay the output names.
 */

/** action.yml's outputs, in its order; a test holds the two together. */
const OUTPUT_NAMES = (/* unused pure expression or super */ null && ([
    'ready',
    'elapsed-seconds',
    'attempts',
    'status-code',
    'models',
    'model-id',
    'model-match',
    'first-response-seconds',
    'reason',
    'pid',
    'log-file',
    'startup-seconds',
    'gpu-memory-mib',
    'generation-seconds',
    'results',
    'phases',
    'expected-seconds',
    'regression-percent',
    'ttft-ms',
    'decode-tokens-per-second'
]));
function outputs(outcome) {
    const server = outcome.server;
    const profile = outcome.profile;
    return {
        ready: String(outcome.ready),
        'elapsed-seconds': (0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_0__/* .seconds */ .YA)(outcome.elapsedMs),
        attempts: String(outcome.attempts),
        'status-code': outcome.last?.status === undefined ? '' : String(outcome.last.status),
        models: JSON.stringify(outcome.models),
        'model-id': outcome.last?.modelId ?? '',
        'model-match': outcome.ready ? (outcome.last?.modelMatch ?? '') : '',
        'first-response-seconds': outcome.firstResponseMs === undefined ? '' : (0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_0__/* .seconds */ .YA)(outcome.firstResponseMs),
        reason: outcome.reason,
        pid: server?.pid === undefined ? '' : String(server.pid),
        'log-file': server?.logFile ?? '',
        'startup-seconds': server?.startupMs === undefined ? '' : (0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_0__/* .seconds */ .YA)(server.startupMs),
        'gpu-memory-mib': server?.gpuMemoryMiB === undefined ? '' : String(server.gpuMemoryMiB),
        'generation-seconds': outcome.generationMs === undefined ? '' : (0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_0__/* .seconds */ .YA)(outcome.generationMs),
        results: JSON.stringify(outcome.results.map(resultRecord)),
        phases: JSON.stringify((outcome.profile?.phases ?? []).map((p) => ({ name: p.name, seconds: p.seconds }))),
        'expected-seconds': profile?.expectedSeconds === undefined ? '' : profile.expectedSeconds.toFixed(1),
        'regression-percent': profile?.regressionPercent === undefined ? '' : profile.regressionPercent.toFixed(1),
        'ttft-ms': outcome.smoke?.ttftMs === undefined ? '' : String(Math.round(outcome.smoke.ttftMs)),
        'decode-tokens-per-second': outcome.smoke?.decodeTokensPerSecond === undefined ? '' : outcome.smoke.decodeTokensPerSecond.toFixed(1)
    };
}
/** One endpoint's entry in the `results` output. */
function resultRecord(r) {
    return {
        url: r.url.href,
        ready: r.ready,
        'elapsed-seconds': Number((0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_0__/* .seconds */ .YA)(r.elapsedMs)),
        'status-code': r.last?.status ?? null,
        'model-id': r.last?.modelId ?? null,
        reason: r.reason,
        // a fleet of servers: each endpoint's own (one server for all has them in the outputs beside `results`)
        ...(r.server === undefined
            ? {}
            : {
                pid: r.server.pid ?? null,
                container: r.server.container ?? null,
                'log-file': r.server.logFile ?? null,
                'startup-seconds': r.server.startupMs === undefined ? null : Number((0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_0__/* .seconds */ .YA)(r.server.startupMs)),
                'gpu-memory-mib': r.server.gpuMemoryMiB ?? null
            }),
        ...(r.profile === undefined ? {} : { phases: r.profile.phases.map((p) => ({ name: p.name, seconds: p.seconds })) }),
        // only with a smoke test: a wait without one keeps the entries it always had
        ...(r.smoke === undefined
            ? {}
            : {
                'ttft-ms': r.smoke.ttftMs === undefined ? null : Math.round(r.smoke.ttftMs),
                'decode-tokens-per-second': r.smoke.decodeTokensPerSecond === undefined ? null : Number(r.smoke.decodeTokensPerSecond.toFixed(1))
            })
    };
}
/** Every output's JSON kind: a new output must be given one. */
const OUTPUT_KINDS = {
    ready: 'boolean',
    'elapsed-seconds': 'number',
    attempts: 'number',
    'status-code': 'number',
    models: 'json',
    'model-id': 'string',
    'model-match': 'string',
    'first-response-seconds': 'number',
    reason: 'string',
    pid: 'number',
    'log-file': 'string',
    'startup-seconds': 'number',
    'gpu-memory-mib': 'number',
    'generation-seconds': 'number',
    results: 'json',
    phases: 'json',
    'expected-seconds': 'number',
    'regression-percent': 'number',
    'ttft-ms': 'number',
    'decode-tokens-per-second': 'number'
};
/**
 * An empty output (nothing to tell: no status code, no pid) is null unless it is text; a value that does not read
 * as its kind (which the outputs never make) stays the string it is rather than being lost.
 */
function typed(kind, text) {
    if (kind === 'string')
        return text;
    if (text === '')
        return null;
    if (kind === 'boolean')
        return text === 'true' ? true : text === 'false' ? false : text;
    if (kind === 'number')
        return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    try {
        return JSON.parse(text);
    }
    catch {
        return text;
    }
}
/** The outputs as `--json` prints them; a name that is no output (none is) stays text. */
function typedOutputs(outputs) {
    const kinds = OUTPUT_KINDS;
    return Object.fromEntries(Object.entries(outputs).map(([name, text]) => [name, typed(kinds[name] ?? 'string', text)]));
}


/***/ }),

/***/ 8478:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $P: () => (/* binding */ phaseMarkdown),
/* harmony export */   Fr: () => (/* binding */ regressionText),
/* harmony export */   Ir: () => (/* binding */ driftWarning),
/* harmony export */   LU: () => (/* binding */ driftText),
/* harmony export */   VU: () => (/* binding */ startupLines),
/* harmony export */   Zb: () => (/* binding */ startupStatusText)
/* harmony export */ });
/* unused harmony exports progressText, etaText, phaseChangeText, bar, phaseGantt */
/* harmony import */ var _engines_log_markers_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1995);
/* harmony import */ var _runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9842);


const s1 = (seconds) => `${seconds.toFixed(1)}s`;
const about = (ms) => (ms < 1000 ? 'almost done' : `about ${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(ms)} left`);
/** What the startup profile read in the log, one line each: the engine, each new phase. */
function startupLines(events) {
    return events.map((e) => e.type === 'engine'
        ? `engine: ${(0,_engines_log_markers_js__WEBPACK_IMPORTED_MODULE_0__/* .engineLog */ .NN)(e.engine).label} (${e.from === 'log' ? 'from its log' : 'from its model list'})`
        : phaseChangeText(e.name, e.previous));
}
/** Where the startup is, for a still-waiting line; undefined while neither a phase nor earlier runs tell. */
function startupStatusText(status) {
    if (status === undefined)
        return undefined;
    if (status.phase === undefined)
        return etaText(status.eta);
    return progressText(status.phase, status.phaseLeftMs, status.eta);
}
/** `loading weights 45% (29/64 shards), about 1m10s left; ready in about 4m30s going by earlier runs`. */
function progressText(phase, phaseLeftMs, against) {
    const p = phase.progress?.last;
    const parts = [
        p === undefined
            ? `${phase.name} for ${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(phase.inPhaseMs)}`
            : `${phase.name} ${Math.floor((p.n / p.total) * 100)}% (${p.n}/${p.total} ${phase.progress?.unit})`
    ];
    if (phaseLeftMs !== undefined)
        parts[0] += `, ${about(phaseLeftMs)}`;
    if (against !== undefined)
        parts.push(etaText(against));
    return parts.join('; ');
}
/**
 * `ready in about 4m30s going by earlier runs`; once past that, how much slower: `1m05s slower than earlier runs,
 * which were ready after 40.0s`, or for a phase without a count `12.0s longer than its usual 30.0s in earlier runs`.
 */
function etaText(e) {
    if (e.kind === 'ready-in')
        return `ready in about ${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(Math.max(e.ms, 1000))} going by earlier runs`;
    if (e.phase !== undefined)
        return `${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(e.overMs)} longer than its usual ${s1(e.usualMs / 1000)} in earlier runs`;
    return `${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(e.overMs)} slower than earlier runs, which were ready after ${s1(e.usualMs / 1000)}`;
}
/** `now loading weights (initializing took 12.3s)`. */
const phaseChangeText = (name, previous) => `now ${name}${previous ? ` (${previous.name} took ${s1(previous.seconds)}${previous.printed ? ' by its own count' : ''})` : ''}`;
const BLOCKS = ['', '\u258f', '\u258e', '\u258d', '\u258c', '\u258b', '\u258a', '\u2589'];
const BAR_WIDTH = 24;
/** A bar of `fraction` \u00d7 BAR_WIDTH cells, in eighths of a cell (any time at all shows as one eighth). */
function bar(fraction) {
    const f = Math.min(1, Math.max(0, fraction));
    const eighths = f > 0 ? Math.max(1, Math.round(f * BAR_WIDTH * 8)) : 0;
    return '\u2588'.repeat(Math.floor(eighths / 8)) + BLOCKS[eighths % 8];
}
/** `00:05:03.400`: a time from the start, in the chart's date format (Mermaid reads it as a time of day). */
const clock = (ms) => {
    // HH stops at 23: a startup of a day is past any timeout worth waiting for
    const t = Math.min(Math.max(0, Math.round(ms)), 24 * 3600_000 - 1);
    const hms = [Math.floor(t / 3600_000), Math.floor(t / 60_000) % 60, Math.floor(t / 1000) % 60];
    return `${hms.map((n) => String(n).padStart(2, '0')).join(':')}.${String(t % 1000).padStart(3, '0')}`;
};
/** Seconds as whole tenths, in milliseconds: the chart's resolution, that of the figures in its labels. */
const tenths = (seconds) => Math.round(seconds * 10) * 100;
/**
 * A Mermaid gantt chart of the phases end to end (GitHub draws it in job summaries). Each bar runs from the sum of
 * the phases before it to the sum with it, to the tenth of a second (Mermaid's gantt parses `dateFormat` with
 * dayjs, whose `SSS` reads milliseconds), so a 0.0 s phase is no wider than it took and the bars end at the total.
 */
function phaseGantt(phases, engineLabel) {
    const total = phases.reduce((sum, p) => sum + p.seconds, 0);
    const lines = [
        '```mermaid',
        'gantt',
        `  title ${engineLabel} startup`,
        '  dateFormat HH:mm:ss.SSS',
        `  axisFormat ${total < 3600 ? '%M:%S' : '%H:%M'}`,
        `  section ${engineLabel}`
    ];
    let sum = 0;
    for (const p of phases) {
        const start = tenths(sum);
        sum += p.seconds;
        lines.push(`  ${`${p.name} ${s1(p.seconds)}`.replace(/[:;#]/g, ' ')} : ${clock(start)}, ${clock(tenths(sum))}`);
    }
    lines.push('```');
    return lines.join('\n');
}
/**
 * The summary's phase section: the chart, and a table of the numbers with proportional bars (and the usual
 * figures when there is history). Figures the engine printed itself are marked.
 */
function phaseMarkdown(phases, engineLabel, usual) {
    if (phases.length === 0)
        return '';
    const longest = Math.max(...phases.map((p) => p.seconds), 0.001);
    const total = phases.reduce((sum, p) => sum + p.seconds, 0);
    const withUsual = usual !== undefined && usual.size > 0;
    // A chart of one bar (a run that failed in its first phase) shows nothing the table does not.
    const lines = ['#### Startup phases', '', ...(phases.length > 1 ? [phaseGantt(phases, engineLabel), ''] : [])];
    lines.push(withUsual ? '| phase | seconds | usual | share | |' : '| phase | seconds | share | |', withUsual ? '|---|---:|---:|---:|---|' : '|---|---:|---:|---|');
    for (const p of phases) {
        const share = `${total > 0 ? Math.round((p.seconds / total) * 100) : 0}%`;
        const seconds = `${p.seconds.toFixed(1)}${p.printed ? ' *' : ''}`;
        const u = usual?.get(p.name);
        const cells = withUsual
            ? [p.name, seconds, u === undefined ? '\u2014' : u.toFixed(1), share, bar(p.seconds / longest)]
            : [p.name, seconds, share, bar(p.seconds / longest)];
        lines.push(`| ${cells.join(' | ')} |`);
    }
    if (phases.some((p) => p.printed))
        lines.push('', `\\* as ${engineLabel} reported it; the other figures are measured from its log.`);
    return `${lines.join('\n')}\n`;
}
/** The warning for a startup slower than usual. */
function regressionText(r) {
    const grew = r.grewMost
        ? `; ${r.grewMost.name} grew most: ${s1(r.grewMost.seconds)} against ${s1(r.grewMost.usual)}`
        : '';
    return (`Startup took ${s1(r.seconds)}, ${r.percent.toFixed(1)}% over the median of ${s1(r.expectedSeconds)} ` +
        `of the last ${r.runs} ready run${r.runs === 1 ? '' : 's'}${grew}.`);
}
const value = (v) => (v === undefined ? 'unset' : JSON.stringify(v));
/** `NCCL_PROTO was "LL" in the last 5 runs, now unset`. */
const driftText = (d) => {
    const last = `in the last ${d.runs === 1 ? 'run' : `${d.runs} runs`}`;
    // a credential's record is a keyed hash: whether it changed is all there is to say
    if (d.secret) {
        const set = (v) => (v === undefined ? 'unset' : 'set');
        return d.was !== undefined && d.now !== undefined
            ? `${d.name} (a credential) changed: the same value ${last}, another now`
            : `${d.name} (a credential) was ${set(d.was)} ${last}, now ${set(d.now)}`;
    }
    return `${d.name} was ${value(d.was)} ${last}, now ${value(d.now)}`;
};
function driftWarning(drifts) {
    return `The server's environment changed since the previous run with this history key: ${drifts.map(driftText).join('; ')}.`;
}


/***/ }),

/***/ 8991:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Gq: () => (/* binding */ envWhose),
/* harmony export */   HN: () => (/* binding */ gateLines),
/* harmony export */   Hl: () => (/* binding */ fleetFailedText),
/* harmony export */   OJ: () => (/* binding */ fleetRefusedText),
/* harmony export */   Or: () => (/* binding */ envDiffersText),
/* harmony export */   R2: () => (/* binding */ finalLine),
/* harmony export */   Sh: () => (/* binding */ waitingLine),
/* harmony export */   V8: () => (/* binding */ eventLine),
/* harmony export */   _s: () => (/* binding */ envUnreadableText),
/* harmony export */   tL: () => (/* binding */ probeLine)
/* harmony export */ });
/* harmony import */ var _answer_report_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9823);
/* harmony import */ var _expectation_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2060);
/* harmony import */ var _runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9842);
/** The progress lines: the line the wait begins with, each change of answer, the gate's own lines, the last line. */



/** `startup`: where the server's own startup is, from its log (a still-waiting line leads with it). */
function eventLine(event, startup) {
    const at = (0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(event.elapsedMs);
    const { summary } = (0,_answer_report_js__WEBPACK_IMPORTED_MODULE_0__/* .answerWords */ .G)(event.assessment.answer);
    if (event.type === 'change')
        return `${at}: ${summary}`;
    if (event.type === 'lost')
        return `${at}: the server stopped answering (${summary}) after it had answered: crashed or restarting?`;
    if (startup !== undefined)
        return `${at}: ${startup}; the server still answers: ${summary} (${(0,_expectation_js__WEBPACK_IMPORTED_MODULE_2__/* .probes */ .K)(event.attempt)} so far)`;
    return `${at}: still waiting (${(0,_expectation_js__WEBPACK_IMPORTED_MODULE_2__/* .probes */ .K)(event.attempt)} so far); the server still answers: ${summary}`;
}
/** A debug line for one probe: what came back, the body quoted (so its line breaks stay escaped). */
function probeLine(result) {
    if (result.kind === 'error')
        return `probe: ${result.code} (${result.message})${result.status === undefined ? '' : ` after HTTP ${result.status}`}`;
    const facts = [
        `${Buffer.byteLength(result.body)} bytes${result.truncated ? ' (cut at 1 MiB)' : ''}`,
        result.contentType && `content-type ${result.contentType}`,
        result.retryAfterMs !== undefined && `Retry-After ${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(result.retryAfterMs)}`,
        result.redirectedTo && `after redirects, from ${result.redirectedTo}`
    ].filter(Boolean);
    return `probe: HTTP ${result.status}, ${facts.join(', ')}: ${JSON.stringify(result.body.slice(0, 200))}`;
}
/** The line the progress ends with. */
function finalLine(outcome) {
    // a fleet: how many are ready, and which endpoint the line's figures are
    const results = outcome.results ?? [];
    const fleet = results.length > 1
        ? ` (${outcome.url?.href ?? 'an endpoint'}; ${results.filter((r) => r.ready).length} of ${results.length} endpoints ready)`
        : '';
    if (outcome.ready) {
        const model = outcome.last?.modelId ? `; model "${outcome.last.modelId}"` : '';
        const said = outcome.last === undefined ? '' : (0,_answer_report_js__WEBPACK_IMPORTED_MODULE_0__/* .answerWords */ .G)(outcome.last.answer).summary;
        return `Ready after ${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(outcome.elapsedMs)} (${(0,_expectation_js__WEBPACK_IMPORTED_MODULE_2__/* .probes */ .K)(outcome.attempts)})${model}: ${said}${fleet}`;
    }
    return `Not ready after ${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(outcome.elapsedMs)} (${(0,_expectation_js__WEBPACK_IMPORTED_MODULE_2__/* .probes */ .K)(outcome.attempts)}): ${outcome.reason}${fleet}`;
}
/** `env-report` asked for, and nothing to report: the log and the job summary say so alike. */
const envUnreadableText = (server) => `The environment of process ${server.envPid ?? server.pid} could not be read (it has exited, or this is not Linux).`;
/** Whose environment the report is: `process 1235, which listens on port 8000` (the launched one named where it is another). */
const envWhose = (server) => server.envPort === undefined
    ? `process ${server.envPid ?? server.pid}`
    : `process ${server.envPid ?? server.pid}, which listens on port ${server.envPort}` +
        (server.launchedEnv === undefined ? '' : `; the launched process is ${server.launchedEnv.pid}`);
/** The listener is not the launched process: whether, and in which variables, their environments differ. */
function envDiffersText(server) {
    const launched = server.launchedEnv;
    if (launched === undefined)
        return '';
    if (launched.env === undefined)
        return `The environment of the launched process ${launched.pid} could not be read.`;
    if (launched.differs.length === 0)
        return `The launched process ${launched.pid} has the same values.`;
    const n = launched.differs.length;
    return (`The launched process ${launched.pid} has other values for ${n === 1 ? 'one variable' : `${n} variables`} ` +
        `(${launched.differs.join(', ')}): the server did not get what the step set. The launched process has:`);
}
/** The gate's own lines, beside the wait's events. */
const gateLines = {
    started: (pid, logFile) => `Started the server (pid ${pid}); its output goes to ${logFile}`,
    watching: (pid, logFile) => `Watching the server process ${pid}${logFile === undefined ? '' : ` and its log ${logFile}`}`,
    /** A line the startup profile says, `elapsedMs` into the wait. */
    startup: (elapsedMs, line) => `${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(elapsedMs)}: ${line}`,
    environment: (server) => {
        const launched = server.launchedEnv;
        if (launched === undefined)
            return [`Server environment (${envWhose(server)}):`, ...envLines(server).map((l) => `  ${l}`)];
        return [
            `Server environment (${envWhose(server)}):`,
            ...envLines(server).map((l) => `  ${l}`),
            envDiffersText(server),
            ...(launched.differs.length === 0
                ? []
                : envLines({
                    ...server,
                    env: launched.env,
                    envPid: launched.pid,
                    envUnreadable: launched.env === undefined
                }).map((l) => `  ${l}`))
        ];
    },
    requestHeaders: (names) => `request headers: ${names.join(', ')} (values not shown)`,
    noLog: (path) => `The server log ${path} does not exist.`,
    /** Why the other endpoints of a fleet stop waiting. */
    fleetStopped: (url, reason) => `${url.href} can no longer become ready (${reason})`,
    /** Why a fleet with `fleet-min-ready` stops waiting for the endpoints not yet ready. */
    fleetEnough: (ready, size, minReady) => `not waited for any longer: ${ready} of ${size} endpoints are ready (fleet-min-ready: ${minReady})`,
    /** Why the others stop when failures leave too few endpoints to be ready (`fleet-min-ready`). */
    fleetShort: (url, reason, failed, size, minReady) => `${url.href} can no longer become ready (${reason}): ${failed} of ${size} endpoints have failed, ` +
        `so fewer than fleet-min-ready (${minReady}) can be ready`
};
/** Why an endpoint of a fleet of servers started nothing: another endpoint's pre-flight refused its server. */
const fleetRefusedText = (by, reason) => `nothing was started: the server of ${by.href} was refused (${reason}), and a fleet starts whole or not at all`;
/** Why an endpoint of a fleet of servers stopped waiting: another endpoint's own wait failed outright. */
const fleetFailedText = (by, error) => `the wait for ${by.href} failed (${error}), and the fleet's other waits end with it`;
/** The line the wait begins with: how long, for what (`endpoints`: how many a fleet has), how often. */
function waitingLine(ctx, { endpoints, generation, intervalMs, smoke }) {
    const subject = endpoints > 1 ? `each of ${endpoints} endpoints` : undefined;
    const then = smoke === undefined
        ? ''
        : `; then a smoke test of ${smoke.requests} streamed generation${smoke.requests === 1 ? '' : 's'} of ${smoke.tokens} tokens`;
    return (`Waiting up to ${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(ctx.timeoutMs)} for ${(0,_expectation_js__WEBPACK_IMPORTED_MODULE_2__/* .describeExpectation */ .u)(ctx, subject)}` +
        `${generation ? ' and a one-token generation to succeed' : ''}; probing every ${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(intervalMs)}${then}`);
}
/** The `env-report` lines for the log. */
function envLines(server) {
    if (server.envUnreadable)
        return [envUnreadableText(server)];
    return (server.env ?? []).map((e) => (e.value === undefined ? `${e.name}: not set` : `${e.name}=${e.value}`));
}


/***/ }),

/***/ 1542:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   X4: () => (/* binding */ smokeRows),
/* harmony export */   ZI: () => (/* binding */ throughputRegressionText),
/* harmony export */   c7: () => (/* binding */ smokeProblemMessage),
/* harmony export */   zv: () => (/* binding */ smokeLines)
/* harmony export */ });
/* harmony import */ var _smoke_frames_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8855);
/* harmony import */ var _runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9842);
/* harmony import */ var _profile_report_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8478);
/* harmony import */ var _engines_log_markers_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(1995);




/** `312 ms`, as the `ttft-ms` output gives it. */
const ttftText = (ms) => `${Math.round(ms)} ms`;
/** `49.8 tokens/s`, as the `decode-tokens-per-second` output gives it. */
const rateText = (perSecond) => `${perSecond.toFixed(1)} tokens/s`;
const SOURCE_WORDS = {
    'usage.completion_tokens': "the engine's usage.completion_tokens",
    'timings.predicted_n': "the engine's timings.predicted_n",
    eval_count: "the engine's eval_count",
    'details.generated_tokens': "the engine's details.generated_tokens",
    chunks: 'the streamed chunks (the engine gave no count)'
};
const sourceText = (source) => SOURCE_WORDS[source];
const smokeLines = {
    /** Before the first request. */
    start: (requests, tokens, request) => `Smoke test: ${requests} streamed generation request${requests === 1 ? '' : 's'} of ${tokens} tokens` +
        `${request === undefined ? '' : ` (${request})`}, one after another`,
    measured: (index, requests, m) => `Smoke test ${index + 1}/${requests}: first token after ${ttftText(m.ttftMs)}; ${m.tokens} token${m.tokens === 1 ? '' : 's'}` +
        (m.decodeTokensPerSecond === undefined ? ', all at once' : ` at ${rateText(m.decodeTokensPerSecond)}`),
    result: (r) => r.ttftMs === undefined || r.decodeTokensPerSecond === undefined
        ? undefined
        : `Smoke test: time to first token ${ttftText(r.ttftMs)}, decode ${rateText(r.decodeTokensPerSecond)} ` +
            `(median${r.measurements.length === 1 ? '' : 's'} of ${r.measurements.length} request${r.measurements.length === 1 ? '' : 's'}; ` +
            `tokens counted from ${sourceText(r.source ?? 'chunks')})`
};
const KIB = (bytes) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`);
function problemText(p, request = 'the generation request') {
    switch (p.kind) {
        case 'no-route':
            return p.why === 'no-text-generation'
                ? `${p.engine === undefined ? 'the engine' : (0,_engines_log_markers_js__WEBPACK_IMPORTED_MODULE_3__/* .engineLog */ .NN)(p.engine).label} serves no streamed text generation ` +
                    'this smoke test knows (it runs on vLLM, SGLang, TGI, llama.cpp, Ollama and OpenAI-compatible servers)'
                : `no streamed generation route is known for ${p.path}: point "url" at the server's model list ` +
                    '(/v1/models, /api/tags or /info) or name the engine with "engine"';
        case 'http':
            return `${request} answered HTTP ${p.status}${p.said === undefined ? '' : `: ${p.said}`}`;
        case 'network':
            return `${request} failed: ${p.code} (${p.message})`;
        case 'timeout':
            return `it did not finish within smoke-timeout (${(0,_runtime_clock_js__WEBPACK_IMPORTED_MODULE_1__/* .formatDuration */ .a3)(p.timeoutMs)})`;
        case 'stopped':
            return 'it was stopped: the job was cancelled, or the server exited or wrote a fatal line';
        case 'stream-error':
            return `the engine's stream said: ${p.said}`;
        case 'too-long':
            return p.what === 'line'
                ? `the stream sent a line longer than ${KIB(_smoke_frames_js__WEBPACK_IMPORTED_MODULE_0__/* .MAX_LINE_BYTES */ .Oc)}`
                : `the stream sent more than ${KIB(_smoke_frames_js__WEBPACK_IMPORTED_MODULE_0__/* .MAX_STREAM_BYTES */ .wC)}`;
        case 'no-tokens':
            return `${request} answered without a token in a stream`;
        case 'not-streamed':
            return 'every request got its tokens in one piece: the server did not stream them, so there is no decode rate';
    }
}
/** The smoke test's failure or warning, for an endpoint (`url` for a fleet's). */
function smokeProblemMessage(r, url) {
    const at = url === undefined ? '' : ` of ${url.href}`;
    const done = r.measurements.length;
    const lead = done === 0 || r.problem?.kind === 'not-streamed'
        ? `The smoke test${at} could not measure throughput`
        : `The smoke test${at} stopped after ${done} of ${r.requests} requests`;
    const text = `${lead}: ${problemText(r.problem ?? { kind: 'no-tokens' }, r.request)}`;
    // the server's words may end a sentence already
    return /[.!?]$/.test(text) ? text : `${text}.`;
}
/** `Decode rate 62.9 tokens/s, 29.2% below the median of 88.8 tokens/s of the last 5 runs; \u2026, a likely cause.` */
function throughputRegressionText(t) {
    const cause = t.drift.length === 0
        ? ''
        : `; the server's environment changed since the previous run, a likely cause: ${t.drift.map(_profile_report_js__WEBPACK_IMPORTED_MODULE_2__/* .driftText */ .LU).join('; ')}`;
    return (`Decode rate ${rateText(t.now)}, ${t.percentBelow.toFixed(1)}% below the median of ${rateText(t.usual)} ` +
        `of the last ${t.runs} run${t.runs === 1 ? '' : 's'} with a smoke test${cause}.`);
}
/** The job summary's rows for the smoke test of the endpoint the summary describes; none without one. */
function smokeRows(outcome) {
    const r = outcome.smoke;
    if (r === undefined)
        return [];
    if (r.ttftMs === undefined || r.decodeTokensPerSecond === undefined)
        return [['Smoke test', `\u26a0\ufe0f ${smokeProblemMessage(r)}`]];
    const n = r.measurements.length;
    const usual = outcome.profile?.usualDecodeTokensPerSecond;
    return [
        ['Time to first token (smoke test)', `${ttftText(r.ttftMs)} (median of ${n} request${n === 1 ? '' : 's'})`],
        [
            'Decode rate (smoke test)',
            `${rateText(r.decodeTokensPerSecond)} (median of ${n}; tokens counted from ${sourceText(r.source ?? 'chunks')}` +
                `${usual === undefined ? '' : `; usual ${rateText(usual)}`})`
        ],
        ...(r.problem === undefined ? [] : [['Smoke test', `\u26a0\ufe0f ${smokeProblemMessage(r)}`]])
    ];
}


/***/ }),

/***/ 5791:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   X: () => (/* binding */ secretValueOf),
/* harmony export */   q: () => (/* binding */ envReport)
/* harmony export */ });
/* harmony import */ var _inputs_secrets_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3332);
/** `env-report`: the chosen variables from a process's environment, with credential-like values masked. */

/**
 * A credential's own value, held apart from its entry so that no serialisation of the facts (the log, the summary,
 * `--json`) can carry it: only the history reads it, to store a keyed hash of it (history/fingerprint.ts).
 */
const secretValues = new WeakMap();
/** The value a masked entry stands for; undefined for an entry that is not a credential. */
const secretValueOf = (entry) => secretValues.get(entry);
/**
 * Each name or glob (`*` any run of characters, `?` one) in order; a glob gives every matching variable, sorted.
 * A value is masked by the one credential rule (inputs/secrets.ts): its name says it is a credential, its value
 * has a credential's shape (a URL's password, a token), or it holds one of `secrets` (the api-key in a variable
 * called MODEL_AUTH is still the api-key): the report also goes into the history file.
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
            if (!(0,_inputs_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .isSecretValue */ .w2)(name, value, secrets)) {
                entries.push({ name, value });
                continue;
            }
            const entry = { name, value: _inputs_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .MASK */ .v5, secret: true };
            secretValues.set(entry, value);
            entries.push(entry);
        }
    }
    return entries;
}


/***/ }),

/***/ 8855:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Oc: () => (/* binding */ MAX_LINE_BYTES),
/* harmony export */   tS: () => (/* binding */ FrameReader),
/* harmony export */   wC: () => (/* binding */ MAX_STREAM_BYTES)
/* harmony export */ });
/* harmony import */ var _http_probe_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(242);
/**
 * A streamed body cut into events as its bytes arrive, within bounds a hostile server cannot swell: a line longer
 * than MAX_LINE_BYTES, or a body longer than MAX_STREAM_BYTES, ends the stream as an error rather than growing a
 * buffer. SSE (`data:` lines, an event ends at a blank line, `data: [DONE]` ends the stream) or one JSON object a
 * line (Ollama).
 */

/** No event of a token stream comes near this (a final event with its settings is a few KiB). */
const MAX_LINE_BYTES = 64 * 1024;
/** Far above any answer of a few thousand tokens, each event with its JSON around it. */
const MAX_STREAM_BYTES = 8 * 1024 * 1024;
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
class FrameReader {
    framing;
    partial = [];
    partialBytes = 0;
    total = 0;
    /** The `data:` lines of the SSE event being read. */
    data = [];
    dataBytes = 0;
    decoder = new TextDecoder('utf-8', { fatal: false });
    constructor(framing) {
        this.framing = framing;
    }
    /** The frames these bytes complete; reading ends after a `too-long` one. */
    push(chunk) {
        this.total += chunk.length;
        if (this.total > MAX_STREAM_BYTES)
            return [{ kind: 'too-long', what: 'body' }];
        const frames = [];
        let start = 0;
        for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
            const piece = chunk.subarray(start, nl);
            start = nl + 1;
            if (this.partialBytes + piece.length > MAX_LINE_BYTES)
                return [...frames, { kind: 'too-long', what: 'line' }];
            const line = this.partialBytes === 0 ? piece : Buffer.concat([...this.partial, piece]);
            this.partial = [];
            this.partialBytes = 0;
            frames.push(...this.line(this.decoder.decode(line).replace(/\r$/, '')));
            if (frames.at(-1)?.kind === 'too-long')
                return frames;
        }
        const rest = chunk.subarray(start);
        if (this.partialBytes + rest.length > MAX_LINE_BYTES)
            return [...frames, { kind: 'too-long', what: 'line' }];
        if (rest.length > 0) {
            // copied: the chunk's buffer may be reused by the socket
            this.partial.push(Buffer.from(rest));
            this.partialBytes += rest.length;
        }
        return frames;
    }
    /** What is left once the body ends: a last line without its line break, an SSE event without its blank line. */
    end() {
        const last = this.partialBytes === 0 ? [] : this.line(this.decoder.decode(Buffer.concat(this.partial)));
        this.partial = [];
        this.partialBytes = 0;
        return [...last, ...(this.framing === 'sse' ? this.line('') : [])];
    }
    line(text) {
        if (this.framing === 'ndjson')
            return text.trim() === '' ? [] : toFrame(text);
        if (text === '') {
            if (this.data.length === 0)
                return [];
            const payload = this.data.join('\n');
            this.data = [];
            this.dataBytes = 0;
            return payload.trim() === '[DONE]' ? [{ kind: 'done' }] : toFrame(payload);
        }
        // older llama.cpp sends a failure as an `error:` field of its own: an error event whatever follows
        if (text.startsWith('error:')) {
            const said = text.slice(text[6] === ' ' ? 7 : 6);
            const json = (0,_http_probe_js__WEBPACK_IMPORTED_MODULE_0__/* .parseJson */ .qF)(said);
            return [{ kind: 'event', json: { error: isObject(json) ? (json.error ?? json) : said || 'error' } }];
        }
        // `data:value` and `data: value` alike (TGI writes the first); comments (`:`) and other fields are skipped
        if (!text.startsWith('data:'))
            return [];
        // an event of many `data:` lines is held whole until its blank line: it is bounded as one line is
        this.dataBytes += text.length;
        if (this.dataBytes > MAX_LINE_BYTES)
            return [{ kind: 'too-long', what: 'line' }];
        this.data.push(text.slice(text[5] === ' ' ? 6 : 5));
        return [];
    }
}
/** An event that is not a JSON object (a keep-alive, a stray word) carries nothing: it is skipped. */
function toFrame(text) {
    const json = (0,_http_probe_js__WEBPACK_IMPORTED_MODULE_0__/* .parseJson */ .qF)(text);
    return isObject(json) ? [{ kind: 'event', json }] : [];
}


/***/ }),

/***/ 5165:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Ke: () => (/* binding */ asCancelled),
  yl: () => (/* binding */ cancelledBeforeWait),
  uT: () => (/* binding */ concludedSince)
});

;// CONCATENATED MODULE: ./src/report/cancel-report.ts
/** The words of a cancelled run: which signal came, and at what point of the run. Text only. */
const AT = {
    'before-wait': 'before the wait began (nothing was started)',
    'after-wait': 'as the wait ended',
    'smoke-test': 'during the smoke test',
    diagnostics: 'while the diagnostics ran'
};
/** `the job was cancelled (SIGTERM) during the smoke test`: the halt's detail, as the watch words a cancelled wait. */
const cancelledText = (signal, stage) => `the job was cancelled (${signal}) ${AT[stage]}`;

// EXTERNAL MODULE: ./src/wait/conclusion.ts + 2 modules
var conclusion = __webpack_require__(6100);
;// CONCATENATED MODULE: ./src/wait/cancelled.ts


const cancelHalt = (signal, stage) => ({
    reason: 'cancelled',
    detail: cancelledText(signal, stage)
});
/** The outcome as a cancel at `elapsedMs` leaves it: every endpoint not already cancelled is, from then. */
function asCancelled(outcome, signal, stage, elapsedMs) {
    if (outcome.reason === 'cancelled')
        return outcome;
    const halt = cancelHalt(signal, stage);
    const cut = (r) => r.reason === 'cancelled' ? r : { ...r, ready: false, reason: 'cancelled', halt, elapsedMs };
    return { ...cut(outcome), results: outcome.results.map(cut) };
}
/** A run cancelled before its wait began: no endpoint was probed, no server started. */
function cancelledBeforeWait(settings, signal, elapsedMs) {
    const halt = cancelHalt(signal, 'before-wait');
    const results = settings.targets.map(({ url }) => ({
        ready: false,
        reason: 'cancelled',
        elapsedMs,
        attempts: 0,
        models: [],
        halt,
        timeline: [],
        url
    }));
    return { ...results[0], results };
}
/**
 * The conclusion once the front end's own work after the wait is done (the diagnostics): concluded again as
 * cancelled when `cancel` came meanwhile, so that the outputs and the summary, written next, say so.
 */
function concludedSince(next, settings, cancel, stage, elapsedMs) {
    const signal = cancel.halted;
    if (signal === undefined || next.outcome.reason === 'cancelled')
        return next;
    return (0,conclusion/* conclude */.E)(asCancelled(next.outcome, signal, stage, elapsedMs), settings);
}


/***/ }),

/***/ 6100:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  E: () => (/* binding */ conclude)
});

// EXTERNAL MODULE: ./src/facts/answer.ts
var answer = __webpack_require__(2285);
// EXTERNAL MODULE: ./src/report/smoke-report.ts
var smoke_report = __webpack_require__(1542);
;// CONCATENATED MODULE: ./src/server/container-state.ts
const NAMES = {
    container: 'server-container',
    socket: 'docker-socket',
    timeoutMs: 'container-stop-timeout-ms',
    logFile: 'container-log-file',
    logLines: 'container-log-lines'
};
/** The state to save for a container the job-end step stops, or undefined when it is not this job's to stop. */
function containerEndState(settings, server, socket) {
    const ours = (settings.start !== undefined && settings.stop === 'job-end') || settings.stop === 'always';
    if (!ours || settings.container === undefined || server?.container === undefined)
        return undefined;
    return {
        [NAMES.container]: server.container,
        [NAMES.socket]: socket,
        [NAMES.timeoutMs]: String(settings.stopTimeoutMs),
        [NAMES.logFile]: server.logFile ?? '',
        [NAMES.logLines]: String(settings.logLines)
    };
}
function readContainerEndState(get) {
    const container = get(NAMES.container);
    const socket = get(NAMES.socket);
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/.test(container) || socket === '')
        return undefined;
    const timeoutMs = Number(get(NAMES.timeoutMs));
    const logLines = Number(get(NAMES.logLines));
    return {
        container,
        socket,
        timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 30_000,
        logFile: get(NAMES.logFile) || undefined,
        logLines: Number.isInteger(logLines) && logLines >= 0 ? logLines : 50
    };
}

;// CONCATENATED MODULE: ./src/server/job-end.ts

/** State names, as the runner passes them back: `STATE_<name>`. */
const job_end_NAMES = {
    pid: 'server-pid',
    startTicks: 'server-start-ticks',
    bootId: 'boot-id',
    runMarker: 'run-marker',
    timeoutMs: 'stop-timeout-ms',
    logFile: 'server-log-file',
    logLines: 'log-lines'
};
/** The state to save after the wait, or undefined when the post step has nothing to do. */
function jobEndState(settings, server) {
    // a container is stopped through its engine (container-stop.ts), never by the pid of its process
    if (settings.container !== undefined)
        return containerEndState(settings, server, server?.dockerSocket ?? '');
    // only a server this step launched is this job's to stop: one given by `pid` belongs to whoever started it
    if (settings.start === undefined || settings.stop !== 'job-end' || server?.pid === undefined)
        return undefined;
    return {
        [job_end_NAMES.pid]: String(server.pid),
        [job_end_NAMES.startTicks]: server.startTicks === undefined ? '' : String(server.startTicks),
        [job_end_NAMES.bootId]: server.bootId ?? '',
        [job_end_NAMES.runMarker]: server.runMarker ?? '',
        [job_end_NAMES.timeoutMs]: String(settings.stopTimeoutMs),
        [job_end_NAMES.logFile]: server.logFile ?? '',
        [job_end_NAMES.logLines]: String(settings.logLines)
    };
}
/** How many servers a fleet's state holds; each one's own names end in `-<n>`, from 1 (fleetEndState). */
const FLEET_SIZE = 'fleet-size';
/** As many as `url` may have lines. */
const MAX_FLEET = 1000;
/**
 * The state of a fleet of servers (one per endpoint), each endpoint's own state (jobEndState, or the container's)
 * under its names with `-<n>` added, n from 1 in the order of the `url` lines; undefined when none has a server to
 * stop.
 */
function fleetEndState(states) {
    if (states.every((s) => s === undefined))
        return undefined;
    const state = { [FLEET_SIZE]: String(states.length) };
    states.forEach((own, i) => {
        for (const [name, value] of Object.entries(own ?? {}))
            state[`${name}-${i + 1}`] = value;
    });
    return state;
}
/**
 * The state as each server's stop reads it: one `get` for the one server, or one per server of a fleet (which
 * reads that server's names); refused whole (JobEndStateError) when the fleet's size is not the form it is written in.
 */
function serverStates(get) {
    const text = get(FLEET_SIZE);
    if (text === '')
        return [get];
    if (!/^\d{1,4}$/.test(text) || Number(text) < 2 || Number(text) > MAX_FLEET)
        throw new JobEndStateError(FLEET_SIZE, text, `a whole number from 2 to ${MAX_FLEET}`);
    return Array.from({ length: Number(text) }, (_, i) => (name) => get(`${name}-${i + 1}`));
}
/** A state value not in the form the main step writes: the whole state is refused, and nothing is signalled. */
class JobEndStateError extends Error {
    stateName;
    value;
    form;
    constructor(
    /** The state's name (the variable is `STATE_<name>`). */
    stateName, value, 
    /** The form the main step writes. */
    form) {
        super(`STATE_${stateName}: not ${form}`);
        this.stateName = stateName;
        this.value = value;
        this.form = form;
        this.name = 'JobEndStateError';
    }
}
/** Linux's largest pid (PID_MAX_LIMIT); pid 1 is init, never a server this step launched. */
const PID_MAX = 4_194_304;
const BOOT_ID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MARKER_FORM = /^[0-9a-f]{32}$/;
/** A path as `log-file` takes it (relative to the workspace, as the post step runs there too): no control character, at most PATH_MAX. */
// eslint-disable-next-line no-control-regex
const PATH_FORM = /^[^\0-\x1f\x7f]{1,4095}$/;
/**
 * Reads the state back (`get` returns '' for a name not saved); undefined when the main step saved none. A value
 * in any other form than the one `jobEndState` writes throws JobEndStateError.
 */
function readJobEndState(get) {
    const pidText = get(job_end_NAMES.pid);
    if (pidText === '')
        return undefined;
    const whole = (name, min, max, form, optional = false) => {
        const text = get(name);
        if (optional && text === '')
            return undefined;
        if (!/^\d{1,16}$/.test(text) || Number(text) < min || Number(text) > max)
            throw new JobEndStateError(name, text, form);
        return Number(text);
    };
    const matching = (name, pattern, form) => {
        const text = get(name);
        if (text === '')
            return undefined;
        if (!pattern.test(text))
            throw new JobEndStateError(name, text, form);
        return text;
    };
    const pid = whole(job_end_NAMES.pid, 2, PID_MAX, `a process id from 2 to ${PID_MAX}`);
    return {
        pid,
        startTicks: whole(job_end_NAMES.startTicks, 0, Number.MAX_SAFE_INTEGER, 'a start time in clock ticks, or empty', true),
        bootId: matching(job_end_NAMES.bootId, BOOT_ID_FORM, 'a boot id (a UUID in lower case), or empty'),
        runMarker: matching(job_end_NAMES.runMarker, MARKER_FORM, 'a run marker (32 hexadecimal digits), or empty'),
        timeoutMs: whole(job_end_NAMES.timeoutMs, 1, 2_147_483_647, 'milliseconds from 1 to 2147483647'),
        logFile: matching(job_end_NAMES.logFile, PATH_FORM, 'a path without control characters, or empty'),
        logLines: whole(job_end_NAMES.logLines, 0, 1000, 'a whole number from 0 to 1000')
    };
}

// EXTERNAL MODULE: ./src/inputs/fleet.ts
var fleet = __webpack_require__(8405);
// EXTERNAL MODULE: ./src/report/failure.ts
var failure = __webpack_require__(3304);
// EXTERNAL MODULE: ./src/report/markdown.ts
var markdown = __webpack_require__(4285);
// EXTERNAL MODULE: ./src/report/outputs.ts
var outputs = __webpack_require__(5468);
// EXTERNAL MODULE: ./src/report/progress.ts
var progress = __webpack_require__(8991);
// EXTERNAL MODULE: ./src/inputs/secrets.ts
var secrets = __webpack_require__(3332);
;// CONCATENATED MODULE: ./src/wait/conclusion.ts
/**
 * What must happen once the wait is over, decided once for every front end (the action, the CLI, and later a
 * job-end step and a one-shot check): the outputs, the final line, the log tail, the diagnostics to run, fail or
 * warn, the exit code. A front end only carries it out in its medium. Pure: no I/O, nothing of GitHub or a shell.
 */









/** The report's view of the settings, for `url` (the endpoint the outcome describes). */
const reportContext = (s, url) => ({
    url,
    expect: (0,answer/* expectation */.pG)(s),
    timeoutMs: s.timeoutMs
});
/** Each endpoint's smoke test that could not measure throughput, in words. */
function smokeProblems(outcome) {
    const fleet = outcome.results.length > 1;
    const messages = outcome.results.flatMap((r) => r.smoke?.problem === undefined ? [] : [(0,smoke_report/* smokeProblemMessage */.c7)(r.smoke, fleet ? r.url : undefined)]);
    return messages.length === 0 ? undefined : messages.join('\n');
}
const smokeFailed = (r) => r.smoke?.problem !== undefined;
function conclude(gateOutcome, settings) {
    const smokeMessage = gateOutcome.ready ? smokeProblems(gateOutcome) : undefined;
    const failSmoke = smokeMessage !== undefined && settings.smoke?.failOnError === true;
    // Ready means ready: with fail-on-error, a server that cannot generate a measured stream is not.
    const outcome = failSmoke
        ? {
            ...gateOutcome,
            ready: false,
            reason: 'smoke-failed',
            results: gateOutcome.results.map((r) => (smokeFailed(r) ? { ...r, ready: false, reason: 'smoke-failed' } : r))
        }
        : gateOutcome;
    const context = reportContext(settings, outcome.url);
    const tail = outcome.ready ? undefined : outcome.server?.logTail;
    const verdict = outcome.ready
        ? undefined
        : {
            kind: outcome.reason === 'timeout' && !settings.failOnTimeout ? 'warn' : 'fail',
            // a fleet's failure names its endpoint
            message: failSmoke
                ? smokeMessage
                : `${outcome.results.length > 1 ? `${outcome.url.href}: ` : ''}${(0,failure/* failureMessage */.o)(outcome, context)}`
        };
    const regression = outcome.profile?.regression;
    const failedRegression = settings.failOnRegression ? regression : undefined;
    const failedThroughput = settings.failOnRegression ? outcome.profile?.throughputRegression : undefined;
    return {
        outcome,
        ready: outcome.ready,
        // the same names, each value redacted
        outputs: Object.fromEntries(Object.entries((0,outputs/* outputs */.V4)(outcome)).map(([name, value]) => [name, (0,secrets/* redact */.E$)(value, settings.secrets)])),
        finalLine: (0,progress/* finalLine */.R2)(outcome),
        logTail: tail && {
            title: (0,markdown/* logTailTitle */.Nn)(tail, outcome.server?.logFile),
            lines: tail.map((line) => `${line.number}: ${line.text}`)
        },
        // A cancelled job must end within a second; the diagnostics could take minutes.
        diagnostics: outcome.ready || outcome.reason === 'cancelled' ? [] : settings.diagnostics,
        verdict,
        failedRegression,
        failedThroughput,
        smokeWarning: failSmoke ? undefined : smokeMessage,
        exitCode: verdict?.kind === 'fail' || failedRegression !== undefined || failedThroughput !== undefined ? 1 : 0,
        context,
        jobEndState: settings.servers === undefined
            ? jobEndState(settings, outcome.server)
            : fleetEndState(outcome.results.map((r, i) => jobEndState((0,fleet/* endpointSettings */.h6)(settings, i), r.server)))
    };
}


/***/ }),

/***/ 4750:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   g1: () => (/* binding */ fleetStops),
/* harmony export */   wz: () => (/* binding */ representative)
/* harmony export */ });
/* unused harmony export fleetTally */
/* harmony import */ var _report_progress_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8991);

function fleetTally(size, minReady) {
    let ready = 0;
    let failed = 0;
    return {
        settled(url, isReady, reason) {
            if (isReady) {
                ready++;
                // all of them: the last one settles nothing that is still waiting
                return minReady < size && ready === minReady
                    ? { reason: 'cancelled', detail: _report_progress_js__WEBPACK_IMPORTED_MODULE_0__/* .gateLines */ .HN.fleetEnough(ready, size, minReady) }
                    : undefined;
            }
            failed++;
            // a timeout is every endpoint's deadline at once: it ends nobody else's wait sooner
            if (reason === 'timeout' || failed <= size - minReady)
                return undefined;
            return {
                reason: 'cancelled',
                detail: minReady === size
                    ? _report_progress_js__WEBPACK_IMPORTED_MODULE_0__/* .gateLines */ .HN.fleetStopped(url, reason)
                    : _report_progress_js__WEBPACK_IMPORTED_MODULE_0__/* .gateLines */ .HN.fleetShort(url, reason, failed, size, minReady)
            };
        },
        get ready() {
            return ready >= minReady;
        }
    };
}
/**
 * The endpoint the scalar outputs describe: once the fleet is ready (`minReady` of its endpoints; all of them
 * unless told), the one ready last; else the first to fail on its own account, not one `halted` because another
 * had failed or enough were ready.
 */
function representative(results, halted = () => false, minReady = results.length) {
    const ready = results.filter((r) => r.ready);
    if (ready.length >= Math.min(minReady, results.length))
        return ready.reduce((a, b) => (b.elapsedMs > a.elapsedMs ? b : a));
    const failed = results.filter((r) => !r.ready && !halted(r));
    const candidates = failed.length > 0 ? failed : results.filter((r) => !r.ready);
    return candidates.reduce((a, b) => (b.elapsedMs < a.elapsedMs ? b : a));
}
/**
 * A fleet's endpoints' halters held to its tally: each endpoint's end is told (`settled`, by its index); the halt
 * the tally decides ends those still waiting (a ready one's smoke test and report go on), and `halted` tells an
 * endpoint halted so from one that failed on its own account.
 */
function fleetStops(halters, minReady) {
    const tally = fleetTally(halters.length, minReady);
    const done = halters.map(() => false);
    const halts = new Set();
    return {
        settled(i, { url, ready, reason }) {
            done[i] = true;
            // halted by the fleet: its end is the fleet's doing, not its own
            if (halters[i].halted !== undefined)
                return;
            const halt = tally.settled(url, ready, reason);
            if (halt === undefined)
                return;
            halts.add(halt);
            halters.forEach((h, j) => void (done[j] || h.halt(halt)));
        },
        halted: (r) => r.halt !== undefined && halts.has(r.halt)
    };
}


/***/ }),

/***/ 3757:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  m: () => (/* binding */ serverSeam),
  O: () => (/* binding */ waitWith)
});

// EXTERNAL MODULE: external "node:events"
var external_node_events_ = __webpack_require__(8474);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(7030);
// EXTERNAL MODULE: ./src/runtime/clock.ts
var runtime_clock = __webpack_require__(9842);
// EXTERNAL MODULE: ./src/http/hosts.ts
var hosts = __webpack_require__(2327);
;// CONCATENATED MODULE: ./src/http/port-watch.ts
/**
 * Sees a closed port open, cheaply, so that the HTTP probe goes out the moment a server starts listening
 * instead of up to an `interval` later. Watching a closed port costs the server nothing: a bare TCP connect
 * is refused by the kernel before any server code runs. One poller, made by the gate, serves every URL of a
 * fleet; it spaces its rounds by what the last round cost (a fixed share of one core at most) and by how long the
 * most recently closed port has been closed (`roundGapMs`).
 */




const MIN_ROUND_MS = 100;
const MAX_ROUND_MS = 400;
/**
 * The share of one core the poller may spend: for a fleet read through /proc, this sets the pace (2%: 4.5% of a
 * core for the bench's fleet of 200, worst lag 352 ms; 1.5%: 4.2%, 307-335 ms).
 */
const CPU_BUDGET = 0.015;
/**
 * Rounds space out with the time a port has been closed: 100 ms for its first 10 s, then a hundredth of that
 * time, up to 400 ms (from 40 s). The lag stays a small share of the wait (a load of 2-6 s is seen within 100 ms,
 * one of ten minutes within 400 ms), and a long wait costs a quarter of the connects: most of the CPU of a wait
 * on a closed port is these connects, about half a millisecond each on the machine of BENCHMARKS.md.
 */
const CLOSED_SHARE = 0.01;
/**
 * The gap before the next round: long enough for the last round to keep within `budget` of one core, and a share
 * of the time the most recently closed port has been closed (`closedForMs`, undefined with no port watched).
 */
function roundGapMs(costMs, budget, closedForMs) {
    const growth = closedForMs === undefined ? 0 : closedForMs * CLOSED_SHARE;
    return Math.min(MAX_ROUND_MS, Math.max(MIN_ROUND_MS, costMs / budget, growth));
}
/**
 * With this many loopback ports, one read of /proc/net/tcp{,6} replaces one connect per port. Not for fewer:
 * the kernel walks its whole socket hash table for that read, which takes milliseconds on large hosts and
 * in some VMs (about 2 ms for both tables on the machine where BENCHMARKS.md was measured, read as
 * readListening reads them), while a refused loopback connect costs about half a millisecond.
 */
const PROC_MIN_PORTS = 24;
const PROC_TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];
/** Ports in LISTEN state on a loopback or wildcard address, from the text of /proc/net/tcp or tcp6. */
function listeningLoopbackPorts(table) {
    const ports = new Set();
    for (const line of table.split('\n')) {
        const m = /^\s*\d+:\s+([0-9A-F]+):([0-9A-F]{4})\s+[0-9A-F]+:[0-9A-F]+\s+0A\s/i.exec(line);
        if (m && isLoopbackOrAny(m[1].toUpperCase()))
            ports.add(parseInt(m[2], 16));
    }
    return ports;
}
/** The kernel prints addresses as 32-bit words in host (little-endian) order. */
function isLoopbackOrAny(hex) {
    if (hex.length === 8)
        return hex === '00000000' || hex.endsWith('7F');
    return (/^0+$/.test(hex) ||
        hex === '00000000000000000000000001000000' || // ::1
        /^0000000000000000FFFF0000[0-9A-F]{6}7F$/.test(hex) // ::ffff:127.x.x.x
    );
}
/** One bare TCP connect: true when accepted, false when refused or not answered within `ms`. */
function tcpConnects(host, port, ms) {
    return new Promise((resolve) => {
        const socket = (0,external_node_net_.connect)({ host, port, timeout: ms });
        const done = (open) => () => {
            socket.destroy();
            resolve(open);
        };
        socket.once('connect', done(true));
        socket.once('error', done(false));
        socket.once('timeout', done(false));
    });
}
/**
 * `localhost` is loopback on both families whatever /etc/hosts says (as the probe treats it): 127.0.0.1 is
 * tried every round, ::1, where fewer servers listen alone, every fourth, which keeps a round to one connect.
 * Other names are looked up as the probe looks them up (a resolver that never answers cannot hold the process).
 */
function connectTargets(host, lookup) {
    return new Promise((resolve) => lookup(host, { all: true }, (err, found) => {
        if (err !== null || typeof found === 'string')
            return resolve([{ address: host, everyRounds: 1 }]);
        const bothFamilies = (0,hosts/* loopbackAddresses */.G4)(host) !== undefined;
        resolve(found.map((a) => ({ address: a.address, everyRounds: bothFamilies && a.family === 6 ? 4 : 1 })));
    }));
}
/** Polls every watched port in rounds; runs only while someone watches. */
class PortPoller {
    budget;
    clock;
    watchers = new Set();
    /** The running chain of rounds; aborted when no one watches. */
    rounds;
    procReadable;
    lookup = (0,hosts/* createLookup */.BL)();
    constructor(budget = CPU_BUDGET, clock = runtime_clock/* systemClock */.ml) {
        this.budget = budget;
        this.clock = clock;
    }
    /** The watch of one URL's port, for the wait loop. */
    watchFor(url) {
        let closedSince;
        return {
            opened: async (signal) => {
                closedSince ??= this.clock.now();
                if (await this.watch(url, signal, closedSince))
                    closedSince = undefined;
            },
            local: (0,hosts/* isLoopback */.U9)(url.hostname)
        };
    }
    /** Ends every watch (each resolves) and the rounds. */
    close() {
        for (const watcher of [...this.watchers])
            watcher.resolve(false);
        this.idle();
    }
    /** Resolves true once something listens on the URL's port, false when `signal` aborts or the poller closes. */
    watch(url, signal, closedSince = this.clock.now()) {
        return new Promise((resolve) => {
            if (signal.aborted)
                return resolve(false);
            const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
            const targets = connectTargets((0,hosts/* bareHost */.n0)(url.hostname), this.lookup);
            const loopback = (0,hosts/* isLoopback */.U9)(url.hostname);
            const watcher = { targets, port, loopback, closedSince, resolve: () => undefined };
            const aborted = () => watcher.resolve(false);
            watcher.resolve = (open) => {
                this.watchers.delete(watcher);
                signal.removeEventListener('abort', aborted);
                if (this.watchers.size === 0)
                    this.idle();
                resolve(open);
            };
            signal.addEventListener('abort', aborted, { once: true });
            this.watchers.add(watcher);
            if (this.rounds === undefined)
                this.nextRound(new AbortController(), MIN_ROUND_MS);
        });
    }
    nextRound(chain, ms) {
        this.rounds = chain;
        void this.clock.sleep(ms, chain.signal).then(() => (chain.signal.aborted ? undefined : this.round(chain)));
    }
    idle() {
        this.rounds?.abort();
        this.rounds = undefined;
    }
    roundCount = 0;
    async round(chain) {
        const round = this.roundCount++;
        // CPU time rather than wall time: on a busy machine a round waits longer without costing more
        const started = process.cpuUsage();
        const watchers = [...this.watchers];
        const loopback = watchers.filter((w) => w.loopback);
        let open;
        if (loopback.length >= PROC_MIN_PORTS)
            open = await this.readProc();
        await Promise.all(watchers.map(async (w) => {
            const listening = open && w.loopback
                ? open.has(w.port)
                : (await Promise.all((await w.targets)
                    .filter((t) => round % t.everyRounds === 0)
                    .map((t) => tcpConnects(t.address, w.port, MAX_ROUND_MS)))).includes(true);
            if (listening)
                w.resolve(true);
        }));
        const used = process.cpuUsage(started);
        const cost = (used.user + used.system) / 1000;
        // no one watches any more, or a new chain began while this round ran
        if (this.watchers.size === 0 || chain !== this.rounds)
            return;
        const closedFor = this.clock.now() - Math.max(...[...this.watchers].map((w) => w.closedSince));
        this.nextRound(chain, roundGapMs(cost, this.budget, closedFor));
    }
    async readProc() {
        // node:fs's callback form: node:fs/promises would be one more module to load before the first probe
        if (this.procReadable === false)
            return undefined;
        const tables = await Promise.all(PROC_TABLES.map((f) => readListening(f)));
        this.procReadable = tables[0].startsWith('  sl');
        return this.procReadable ? listeningLoopbackPorts(tables.join('\n')) : undefined;
    }
}
const CHUNK_BYTES = 64 * 1024;
/** seq_file hands out at most a page per read (4 KiB or more): a read shorter than this ended the table. */
const SHORT_READ_BYTES = 2048;
/** A line of a state other than LISTEN (0A). */
const NOT_LISTENING = /^\s*\d+:\s+[0-9A-F]+:[0-9A-F]+\s+[0-9A-F]+:[0-9A-F]+\s+(?!0A)[0-9A-F]{2}\s/im;
/**
 * The head of a /proc/net/tcp or tcp6 table, up to its last listening socket: '' when it cannot be read.
 * The kernel prints the listening sockets first and, for every read that reaches past them, walks its whole
 * established-connection hash (about 1.6 ms here, even with no connection in it); read to the end, a table
 * costs that walk twice, the second time only to learn that there is nothing more. So reading stops at the first
 * line of another state, or at a read shorter than a page.
 */
function readListening(file) {
    return new Promise((resolve) => (0,external_node_fs_.open)(file, 'r', (err, fd) => {
        if (err !== null)
            return resolve('');
        const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
        const chunks = [];
        const done = (text) => (0,external_node_fs_.close)(fd, () => resolve(text));
        const next = () => (0,external_node_fs_.read)(fd, buffer, 0, CHUNK_BYTES, null, (e, bytes) => {
            if (e !== null)
                return done('');
            const chunk = buffer.toString('latin1', 0, bytes);
            chunks.push(chunk);
            if (bytes < SHORT_READ_BYTES || NOT_LISTENING.test(chunk))
                return done(chunks.join(''));
            next();
        });
        next();
    }));
}

// EXTERNAL MODULE: ./src/http/undici-parts.ts
var undici_parts = __webpack_require__(7101);
// EXTERNAL MODULE: ./src/engines/log-markers.ts
var log_markers = __webpack_require__(1995);
;// CONCATENATED MODULE: ./src/startup/eta.ts
/**
 * Milliseconds left in a phase with progress, at `now`: tqdm's own elapsed time per item where it prints one,
 * else the rate between the first and the latest count seen. Undefined while there is no rate yet.
 */
function phaseLeftMs(p, now) {
    const { first, last } = p;
    if (last.n >= last.total)
        return 0;
    let perItemMs;
    if (last.elapsedS !== undefined && last.n > 0)
        perItemMs = (last.elapsedS * 1000) / last.n;
    else if (last.n > first.n && last.at > first.at)
        perItemMs = (last.at - first.at) / (last.n - first.n);
    if (perItemMs === undefined)
        return undefined;
    return Math.max(0, perItemMs * (last.total - last.n) - (now - last.at));
}
/**
 * Milliseconds until ready going by earlier runs: the rest of this phase (by its rate, else its usual length) and
 * the usual length of the phases after it; without a known phase, the usual startup minus the time so far.
 */
function readyInMs(pos, usual) {
    const index = pos.phase === undefined ? -1 : usual.order.indexOf(pos.phase);
    if (index >= 0) {
        const own = (usual.phaseSeconds.get(pos.phase) ?? 0) * 1000;
        const rest = usual.order.slice(index + 1).reduce((sum, name) => sum + (usual.phaseSeconds.get(name) ?? 0) * 1000, 0);
        return (pos.phaseLeftMs ?? Math.max(0, own - pos.inPhaseMs)) + rest;
    }
    return Math.max(0, usual.totalSeconds * 1000 - pos.elapsedMs);
}
function eta(pos, usual) {
    const usualMs = usual.totalSeconds * 1000;
    if (pos.elapsedMs > usualMs)
        return { kind: 'slower', overMs: pos.elapsedMs - usualMs, usualMs };
    const own = pos.phase === undefined ? undefined : usual.phaseSeconds.get(pos.phase);
    if (own !== undefined && pos.phaseLeftMs === undefined && pos.inPhaseMs > own * 1000)
        return { kind: 'slower', overMs: pos.inPhaseMs - own * 1000, usualMs: own * 1000, phase: pos.phase };
    return { kind: 'ready-in', ms: readyInMs(pos, usual) ?? 0 };
}

;// CONCATENATED MODULE: ./src/startup/phases.ts
/**
 * Follows an engine's startup through its log: fed each line with the time it was read, it knows the engine,
 * the phase the engine is in, its progress, the phases behind it with their durations, and any fatal line.
 * Pure: no I/O and no clock of its own; times are milliseconds on the caller's monotonic scale.
 */

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
/** Lines kept while the engine is not yet known, to be read again once it is. */
const MAX_PENDING = 5000;
const MAX_QUOTE = 500;
const ALL_FATAL = log_markers/* ENGINE_LOGS */.L4.flatMap((e) => e.fatal);
class PhaseTracker {
    log;
    markers = [];
    pending = [];
    list = [];
    open;
    lastIndex = -1;
    /** The read time minus the stamp, at its smallest: maps stamps onto the read scale (a line is read after it is written). */
    offset = Infinity;
    lines = 0;
    fatals = [];
    readySeen = false;
    /** When the ready line was written (its stamp) or read. */
    readyMoment;
    /** A phase its own end marker closed, to be named when the next one begins. */
    ended;
    constructor(opts = {}) {
        if (opts.startedAt !== undefined) {
            this.open = { name: 'starting', index: -1, start: { at: opts.startedAt } };
            this.list.push(this.open);
        }
        if (opts.engine !== undefined)
            this.setEngine(opts.engine, 'log');
    }
    get engine() {
        return this.log?.engine;
    }
    get ready() {
        return this.readySeen;
    }
    /** When the ready line was written, on the read scale: by the engine's stamp where it has one, else when read. */
    readyTime() {
        return this.readyMoment && this.time(this.readyMoment);
    }
    /** Names the engine (from the input or the model list) and reads again the lines that came before. */
    setEngine(engine, from = 'models') {
        if (this.log !== undefined)
            return [];
        this.log = (0,log_markers/* engineLog */.NN)(engine);
        this.markers = (0,log_markers/* phaseMarkers */.LE)(engine);
        const events = [{ type: 'engine', engine, from }];
        for (const p of this.pending.splice(0))
            events.push(...this.read(p.text, p.at));
        return events;
    }
    /**
     * One line of the log (a physical line; tqdm's `\r` updates inside it are read one by one), read at `at`;
     * `lineNumber` is its number in the file when the reader knows better than a count of the lines fed.
     * `fatal: false` for lines from before the wait began: they tell the phases so far, not a failure now.
     */
    feed(rawLine, at, lineNumber = this.lines + 1, { fatal: checkFatal = true } = {}) {
        this.lines = lineNumber;
        const text = rawLine.replace(ANSI, '');
        const events = [];
        if (checkFatal)
            this.matchFatal(text, lineNumber);
        if (this.log === undefined) {
            const engine = (0,log_markers/* engineOfLine */.U1)(text);
            if (engine === undefined) {
                if (this.pending.push({ text, at }) > MAX_PENDING)
                    this.pending.shift();
            }
            else {
                this.pending.push({ text, at });
                events.push(...this.setEngine(engine, 'log'));
            }
        }
        else {
            events.push(...this.read(text, at));
        }
        return events;
    }
    /** Ends the phase under way (the wait is over). */
    finish(at) {
        if (this.open !== undefined)
            this.close({ at });
    }
    current(now) {
        if (this.open === undefined)
            return undefined;
        return {
            name: this.open.name,
            inPhaseMs: Math.max(0, now - this.time(this.open.start)),
            progress: this.open.progress
        };
    }
    /** The phases that have ended, in order. */
    timings() {
        return this.list.filter((p) => p.end !== undefined).map((p) => this.timing(p));
    }
    /** The fatal line to quote: the first that names a cause, else the first. */
    fatal() {
        return this.fatals.find((f) => f.cause) ?? this.fatals[0];
    }
    matchFatal(text, lineNumber) {
        const found = (this.log?.fatal ?? ALL_FATAL).find((f) => f.pattern.test(text));
        if (found !== undefined)
            this.fatals.push({ line: text.trim().slice(0, MAX_QUOTE), lineNumber, cause: found.cause });
    }
    read(text, at) {
        const log = this.log;
        const stamp = (0,log_markers/* stampOf */.Zs)(log, text);
        if (stamp !== undefined)
            this.offset = Math.min(this.offset, at - stamp);
        const moment = { at, stamp };
        const events = [];
        for (const segment of text.split('\r')) {
            const seg = segment.trim();
            if (seg === '')
                continue;
            this.markers.forEach((marker, index) => {
                const took = marker.took?.exec(seg)?.groups;
                if (took !== undefined) {
                    const phase = this.list.find((p) => p.name === marker.phase) ?? this.begin(marker, index, moment, events);
                    if (phase !== undefined)
                        phase.took = Math.max(phase.took ?? 0, (0,log_markers/* tookSeconds */.Jn)(took));
                }
                const progress = marker.progress?.exec(seg)?.groups;
                if (progress !== undefined) {
                    const phase = this.open?.name === marker.phase ? this.open : this.begin(marker, index, moment, events);
                    if (phase !== undefined)
                        record(phase, marker.unit ?? 'steps', progress, at);
                }
                else if (marker.start?.test(seg)) {
                    this.begin(marker, index, moment, events);
                }
                if (marker.end?.test(seg) && this.open?.name === marker.phase)
                    this.ended = this.close(moment);
            });
            if (log.ready.test(seg) && !this.readySeen) {
                this.readySeen = true;
                this.readyMoment = moment;
                if (this.open !== undefined)
                    this.close(moment);
            }
        }
        return events;
    }
    /** Starts a phase if it lies ahead of the current one (other ranks repeat the markers of phases already begun). */
    begin(marker, index, moment, events) {
        if (index <= this.lastIndex || this.readySeen)
            return undefined;
        const previous = this.open === undefined ? this.ended : this.close(moment);
        this.ended = undefined;
        const phase = { name: marker.phase, index, start: moment };
        this.list.push(phase);
        this.open = phase;
        this.lastIndex = index;
        events.push({ type: 'phase', name: marker.phase, at: moment.at, previous });
        return phase;
    }
    close(moment) {
        const phase = this.open;
        phase.end = moment;
        this.open = undefined;
        return this.timing(phase);
    }
    timing(p) {
        return {
            name: p.name,
            seconds: round1(p.took ?? this.measured(p.start, p.end) / 1000),
            printed: p.took !== undefined
        };
    }
    /** A moment on the read scale: the engine's stamp where it has one, else when the line was read. */
    time(m) {
        return m.stamp !== undefined && Number.isFinite(this.offset) ? m.stamp + this.offset : m.at;
    }
    /** Milliseconds between two moments: by the engine's stamps when both have one (and they go forward), else by reads. */
    measured(start, end) {
        if (start.stamp !== undefined && end.stamp !== undefined) {
            // A stamp going back (a clock change on the server) leaves only the reads to go by.
            return end.stamp >= start.stamp ? end.stamp - start.stamp : Math.max(0, end.at - start.at);
        }
        return Math.max(0, this.time(end) - this.time(start));
    }
}
function record(phase, unit, g, at) {
    const sample = {
        n: Number(g.n),
        total: Number(g.total),
        at,
        elapsedS: g.elapsed === undefined ? undefined : (0,log_markers/* clockSeconds */.Ig)(g.elapsed)
    };
    const p = phase.progress;
    if (p === undefined || p.last.total !== sample.total || sample.n < p.last.n)
        phase.progress = { unit, first: sample, last: sample };
    else
        p.last = sample;
}
const round1 = (x) => Math.round(x * 10) / 10;

;// CONCATENATED MODULE: ./src/startup/profile.ts
/**
 * The startup profile of one wait: the server's log lines go in, what they tell comes out as data (the engine, each
 * new phase, a fatal line, where the startup is and how long it has to go), which src/report/profile-report.ts words.
 */



class StartupProfile {
    opts;
    tracker;
    /** When the engine's own ready line was read. */
    readyLineAt;
    constructor(opts = {}) {
        this.opts = opts;
        this.tracker = new PhaseTracker({ engine: opts.engine, startedAt: opts.startedAt });
    }
    /** The fatal line to quote once one is seen (the wait ends on it): the first cause, else the first failure. */
    get fatal() {
        return this.tracker.fatal();
    }
    get engine() {
        return this.tracker.engine;
    }
    /** One line of the server's log (its number in the file, when known), read at `at`: returns what it told. */
    line(text, at, lineNumber) {
        return this.say(this.tracker.feed(text, at, lineNumber), at);
    }
    /** A line written before the wait began (a server started elsewhere): it tells the phases so far, never a failure. */
    earlier(text, at, lineNumber) {
        return this.say(this.tracker.feed(text, at, lineNumber, { fatal: false }), at);
    }
    /** A model-list body's JSON from the server: `owned_by` can name the engine. */
    models(json) {
        const engine = this.tracker.engine === undefined ? (0,log_markers/* engineOfModelList */.Pq)(json) : undefined;
        return engine === undefined ? [] : this.say(this.tracker.setEngine(engine));
    }
    /** Where the startup is, for a still-waiting line; undefined while neither a phase nor earlier runs tell. */
    status(now, elapsedMs) {
        const phase = this.tracker.current(now);
        if (phase === undefined) {
            return this.opts.usual && { eta: eta({ inPhaseMs: 0, elapsedMs }, this.opts.usual) };
        }
        const left = phase.progress === undefined ? undefined : phaseLeftMs(phase.progress, now);
        const against = this.opts.usual &&
            eta({ phase: phase.name, inPhaseMs: phase.inPhaseMs, phaseLeftMs: left, elapsedMs }, this.opts.usual);
        return { phase, phaseLeftMs: left, eta: against };
    }
    /**
     * When the server is expected ready, for the probe schedule: when its ready line was read, else going by the
     * phase under way in its log (its progress, and what earlier runs took for it and the phases after it);
     * undefined while neither tells (the schedule then goes by how long earlier runs answered "loading").
     */
    readyAt(now) {
        if (this.readyLineAt !== undefined)
            return this.readyLineAt;
        const usual = this.opts.usual;
        const phase = this.tracker.current(now);
        if (usual === undefined || phase === undefined || !usual.order.includes(phase.name))
            return undefined;
        const left = phase.progress === undefined ? undefined : phaseLeftMs(phase.progress, now);
        const ms = readyInMs({ phase: phase.name, inPhaseMs: phase.inPhaseMs, phaseLeftMs: left, elapsedMs: 0 }, usual);
        if (ms === undefined)
            return undefined;
        if (ms > 0)
            return now + ms;
        // Past what earlier runs took for the last phase: it was expected when that ended, and the schedule backs off.
        return Math.min(now, now - phase.inPhaseMs + (usual.phaseSeconds.get(phase.name) ?? 0) * 1000);
    }
    /**
     * When the engine's ready line was written, on the clock's scale: its own stamp where its lines have one (mapped
     * by the earliest read, so never later than the read), else when it was read; undefined while not seen.
     */
    readyLineTime() {
        return this.tracker.readyTime();
    }
    /** The engine's ready line has been read. */
    get readyLineSeen() {
        return this.readyLineAt !== undefined;
    }
    /** The wait is over: the phases, the one under way ended at `at`. */
    finish(at) {
        this.tracker.finish(at);
        return this.tracker.timings();
    }
    /** The engine's name for people, when known. */
    get label() {
        return this.engine === undefined ? undefined : (0,log_markers/* engineLog */.NN)(this.engine).label;
    }
    /** `at`: when the line that gave the events was read (the ready line's moment, once the tracker has seen it). */
    say(events, at) {
        if (at !== undefined && this.tracker.ready)
            this.readyLineAt ??= at;
        return events;
    }
}

// EXTERNAL MODULE: ./src/report/progress.ts
var progress = __webpack_require__(8991);
// EXTERNAL MODULE: ./src/report/profile-report.ts
var profile_report = __webpack_require__(8478);
;// CONCATENATED MODULE: ./src/runtime/bounded-regex.ts
/** The scripts and their contexts, made at the first match: a wait with no pattern to run never pays for them. */
let made;
function sandboxes() {
    if (made === undefined) {
        // node:vm is loaded here: two contexts cost milliseconds of the action's start-up (`npm run bench`)
        const { createContext, Script } = process.getBuiltinModule('node:vm');
        made = {
            script: new Script('re.test(text)'),
            context: createContext({ re: undefined, text: '' }),
            findScript: new Script('for (at = 0; at < texts.length; at++) if (re.test(texts[at])) break; at'),
            findContext: createContext({ re: undefined, texts: [], at: 0 })
        };
    }
    return made;
}
/** Whether `re` matches `text`; undefined when the match ran out of time. */
function testWithin(re, text, limitMs) {
    const { script, context } = sandboxes();
    context.re = re;
    context.text = text;
    try {
        return script.runInContext(context, { timeout: Math.max(1, Math.ceil(limitMs)) }) === true;
    }
    catch (e) {
        if (e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
            return undefined;
        throw e;
    }
    finally {
        context.re = undefined;
        context.text = '';
    }
}
/**
 * The index of the first of `texts` that `re` matches (-1 for none), or `{ outOfTimeAt }`: the index of the text
 * the match was on when `limitMs` ran out. One limit for the whole batch, so that a tick of the log watch stays short.
 */
function findWithin(re, texts, limitMs) {
    if (texts.length === 0)
        return -1;
    const { findScript, findContext } = sandboxes();
    findContext.re = re;
    findContext.texts = texts;
    findContext.at = 0;
    try {
        const at = findScript.runInContext(findContext, { timeout: Math.max(1, Math.ceil(limitMs)) });
        return at < texts.length ? at : -1;
    }
    catch (e) {
        if (e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
            return { outOfTimeAt: findContext.at };
        throw e;
    }
    finally {
        findContext.re = undefined;
        findContext.texts = [];
    }
}

;// CONCATENATED MODULE: ./src/server/watch.ts
/** Turns what happens beside the wait into a halt: the server process exiting, a fail-pattern log line, cancellation. */



/**
 * How long `fail-pattern` may run on one look's new lines: a pattern that backtracks (`(\w+\s?)+: CUDA error`
 * on an ordinary line) would otherwise hold the event loop, the deadline and the signals with it.
 */
const FAIL_PATTERN_LIMIT_MS = 250;
/** How long a fatal log line waits for the server's exit, to name its exit code too. */
const EXIT_GRACE_MS = 150;
/** The least time between two reads of the log woken by the file system. */
const SCAN_GAP_MS = 20;
/** Watches a file for changes; undefined where it cannot (not there yet, no inotify): the timer reads it then. */
function watchFile(path, onChange) {
    try {
        const watcher = (0,external_node_fs_.watch)(path, { persistent: false }, onChange);
        watcher.on('error', () => watcher.close());
        return watcher;
    }
    catch {
        return undefined;
    }
}
function watchServer({ halter, server, log, failPattern, readLines, cancel, pollMs = 200 }) {
    let closed = false;
    // A server that exits after the wait is over (or a late fatal line) ends nothing.
    const halt = (h) => void (closed || halter.halt(h));
    const logError = (line, why, after = '') => ({
        reason: 'log-error',
        detail: `line ${line.number} of ${log?.path} ${why}: ${line.text}${after}`
    });
    /**
     * Reads the new lines: a log error among them, if any. A named cause explains most, then the user's pattern.
     * `settled`: nothing later can explain it better (a known line that names no cause, such as vLLM's "EngineCore
     * failed to start", may be followed by the one that does). `all`: every line still unread, not one look's.
     */
    const read = (after = '', all = false) => {
        if (log === undefined)
            return undefined;
        const fresh = all ? log.rest() : log.poll();
        // a log that became a directory, or cannot be read any more, ends the wait: nothing it says can be watched
        if (log.problem !== undefined)
            return { halt: { reason: 'log-error', detail: `${log.problem}${after}` }, settled: true };
        const known = readLines?.(fresh);
        const found = failPattern
            ? findWithin(failPattern, fresh.map((l) => l.text), FAIL_PATTERN_LIMIT_MS)
            : -1;
        if (typeof found === 'object') {
            const line = fresh[found.outOfTimeAt];
            return {
                halt: {
                    reason: 'log-error',
                    detail: `fail-pattern ${String(failPattern)} ran out of time on line ${line.number} of ${log.path} ` +
                        `(it backtracks too much: simplify "fail-pattern")${after}`
                },
                settled: true
            };
        }
        const matching = found === -1 ? undefined : fresh[found];
        const knownError = (k) => logError(k.line, `is a known fatal ${k.engineLabel ?? 'model server'} line`, after);
        if (known?.cause)
            return { halt: knownError(known), settled: true };
        if (matching)
            return { halt: logError(matching, 'matches fail-pattern', after), settled: true };
        return known ? { halt: knownError(known), settled: false } : undefined;
    };
    /** Calls `f` now, or `gapMs` after its last call when that was sooner (once, however many calls came between). */
    const spaced = (f, gapMs) => {
        let last = -Infinity;
        let pending;
        return () => {
            if (pending !== undefined || closed)
                return;
            const wait = last + gapMs - runtime_clock/* systemClock */.ml.now();
            const run = () => {
                pending = undefined;
                last = runtime_clock/* systemClock */.ml.now();
                if (!closed)
                    f();
            };
            if (wait <= 0)
                run();
            else
                pending = setTimeout(run, wait);
        };
    };
    let found;
    let grace;
    const scan = () => {
        // a log that was not there yet when the wait began
        if (changes === undefined && log !== undefined && !closed)
            changes = watchFile(log.path, onChange);
        if (found?.settled)
            return;
        const next = read();
        if (next === undefined)
            return;
        // Within the grace, a cause read after a bare failure line is the one quoted: the lines of one crash come
        // within milliseconds, and how the reads split them must not decide whether the user learns why it failed.
        if (found !== undefined) {
            if (next.settled)
                found = next;
            return;
        }
        found = next;
        // A server usually exits right after its fatal line: a moment's grace lets the message give the exit code.
        if (server === undefined)
            halt(found.halt);
        else
            grace = setTimeout(() => found && halt(found.halt), EXIT_GRACE_MS);
    };
    const reads = log !== undefined && (failPattern !== undefined || readLines !== undefined);
    const timer = reads ? setInterval(scan, pollMs) : undefined;
    // The file system says when the log grows, so that a ready line is read within milliseconds, not a poll later;
    // reads are spaced by SCAN_GAP_MS, so that a progress bar redrawn a thousand times a second costs little.
    const onChange = spaced(() => scan(), SCAN_GAP_MS);
    let changes = reads ? watchFile(log.path, onChange) : undefined;
    void server?.exited.then((how) => {
        if (closed)
            return;
        // A crash usually prints its cause just before: the fatal line explains more than the exit code.
        const who = server.label ?? `the server process ${server.pid}`;
        const after = `; ${who} then ${how}`;
        // its last lines may hold the cause of a failure line already read: all of them are read, not one look's
        const last = found?.settled ? undefined : read(after, true);
        const error = found && !last?.settled ? { ...found.halt, detail: found.halt.detail + after } : last?.halt;
        halt(error ?? { reason: 'server-exited', detail: `${who} ${how}` });
    });
    const onCancel = () => halt({ reason: 'cancelled', detail: `the job was cancelled (${cancel?.halted ?? 'aborted'})` });
    if (cancel?.signal.aborted)
        onCancel();
    else
        cancel?.signal.addEventListener('abort', onCancel, { once: true });
    return {
        close() {
            closed = true;
            clearInterval(timer);
            changes?.close();
            clearTimeout(grace);
            cancel?.signal.removeEventListener('abort', onCancel);
        }
    };
}

// EXTERNAL MODULE: ./src/runtime/memory.ts + 1 modules
var memory = __webpack_require__(2502);
// EXTERNAL MODULE: ./src/wait/first-probe.ts
var first_probe = __webpack_require__(7388);
// EXTERNAL MODULE: ./src/facts/answer.ts
var facts_answer = __webpack_require__(2285);
// EXTERNAL MODULE: ./src/runtime/halter.ts
var runtime_halter = __webpack_require__(1906);
// EXTERNAL MODULE: ./src/history/stats.ts
var stats = __webpack_require__(2899);
// EXTERNAL MODULE: ./src/history/fingerprint.ts
var fingerprint = __webpack_require__(5464);
// EXTERNAL MODULE: ./src/server/env-report.ts
var env_report = __webpack_require__(5791);
// EXTERNAL MODULE: ./src/history/store.ts
var store = __webpack_require__(4689);
// EXTERNAL MODULE: ./src/report/smoke-report.ts
var smoke_report = __webpack_require__(1542);
// EXTERNAL MODULE: ./src/inputs/settings.ts
var inputs_settings = __webpack_require__(900);
;// CONCATENATED MODULE: ./src/wait/run-history.ts







/** Reads the earlier runs with `key`; `file` undefined (with `offNotice` saying why, if it is worth saying) is history off. */
function loadHistory(file, key, offNotice) {
    const off = (notice) => ({ key, earlier: [], notices: notice ? [notice] : [], warnings: [] });
    if (file === undefined)
        return off(offNotice);
    const problem = (0,store/* prepareHistory */.OI)(file);
    if (problem !== undefined)
        return off(problem);
    try {
        const { runs, skipped } = (0,store/* readHistory */.Lu)(file);
        const earlier = runs.filter((r) => r.key === key);
        const warnings = skipped
            ? [
                `History: skipped ${skipped} line${skipped === 1 ? '' : 's'} of ${file} that could not be read ` +
                    '(not a run, or a time that is not a finite number of seconds, or negative).'
            ]
            : [];
        return { file, key, earlier, usual: (0,stats/* usualStartup */.cC)(earlier), notices: [], warnings };
    }
    catch (e) {
        return off(`History is off: cannot read ${file} (${e.message}).`);
    }
}
/**
 * Compares the finished run with the earlier ones, then appends it, waiting for the file's lock at most
 * `lockWaitMs`. A regression is told only against at least `minRuns` earlier ready runs: against one, a cold page
 * cache beside a warm one is a regression every time. The smoke test's decode rate is held to the same `minRuns`,
 * against `throughputThresholdPercent`. A cancel (`signal`) while it waits for the lock ends the wait at once, and the
 * run is not recorded: the gate then ends the run cancelled, and a ready line for it would be a false one.
 */
async function recordRun(history, run, thresholdPercent, minRuns, lockWaitMs, throughputThresholdPercent = 15, signal) {
    const r = (0,stats/* regression */.y8)(history.earlier, run);
    const slower = (0,stats/* throughputRegression */.yV)(history.earlier, run);
    const drift = (0,stats/* envDrift */.pT)(history.earlier, run);
    const notices = [];
    if (history.file !== undefined) {
        try {
            const appended = await (0,store/* appendRun */.ah)(history.file, run, { lockWaitMs, signal });
            if (appended === 'too-long')
                notices.push('History: this run was not recorded, its line is too long.');
        }
        catch (e) {
            notices.push(`History: this run was not recorded (${e.message}).`);
        }
    }
    return {
        expectedSeconds: history.usual?.totalSeconds,
        regressionPercent: r?.percent,
        regression: r !== undefined && r.runs >= minRuns && r.percent > thresholdPercent ? (0,profile_report/* regressionText */.Fr)(r) : undefined,
        drift: drift.length ? (0,profile_report/* driftWarning */.Ir)(drift) : undefined,
        usualDecodeTokensPerSecond: slower?.usual,
        throughputRegression: slower !== undefined && slower.runs >= minRuns && slower.percentBelow > throughputThresholdPercent
            ? (0,smoke_report/* throughputRegressionText */.ZI)(slower)
            : undefined,
        notices
    };
}
/** The earlier runs of this wait's key, its notices and warnings said. */
function openHistory(settings, deps) {
    const auto = settings.historyFile === inputs_settings/* HISTORY_AUTO */.js;
    const urls = settings.targets.map((t) => t.url.href).join('\n');
    const file = auto ? deps.defaultHistory?.path : settings.historyFile;
    // Hashed only for a history that is on: nothing reads the key of one that is off.
    const key = settings.historyKey ?? (file === undefined ? '' : (0,store/* historyKey */.Ox)(urls, settings.model, settings.start));
    const history = loadHistory(file, key, auto ? deps.defaultHistory?.notice : undefined);
    for (const n of history.notices)
        deps.notice(n, 'history');
    for (const w of history.warnings)
        deps.warn(w, 'history');
    return history;
}
/**
 * The wait is over: this run against the earlier ones (warnings for a regression and a changed environment), then
 * recorded, unless a cancel comes first (`deps.cancel`, also while the history's lock is waited for).
 */
async function settle({ settings, outcome, facts, profile, history, deps, readyAt }) {
    const phases = profile.finish(readyAt);
    const engineLabel = profile.label;
    const usualPhaseSeconds = history.usual?.phaseSeconds;
    // A cancelled wait says nothing about how long the server takes.
    if (outcome.reason === 'cancelled')
        return { engineLabel, phases, usualPhaseSeconds };
    const env = facts?.env && envRecord(facts.env, history);
    const run = {
        v: 1,
        key: history.key,
        at: new Date(deps.clock.wallMs()).toISOString(),
        ready: outcome.ready,
        reason: outcome.reason,
        elapsedSeconds: run_history_round1(outcome.elapsedMs / 1000),
        ...(facts?.startupMs === undefined ? {} : { startupSeconds: run_history_round1(facts.startupMs / 1000) }),
        ...(outcome.ready && outcome.firstResponseMs !== undefined
            ? { answeringSeconds: run_history_round1((outcome.elapsedMs - outcome.firstResponseMs) / 1000) }
            : {}),
        ...(profile.engine === undefined ? {} : { engine: profile.engine }),
        phases: phases.map((p) => ({ name: p.name, seconds: p.seconds })),
        ...(env === undefined ? {} : { env, envReport: settings.envReport.join(',') }),
        ...smokeRecord(outcome, settings)
    };
    // a history file another job holds locked must not keep this one past its deadline
    const findings = await recordRun(history, run, settings.regressionThresholdPercent, settings.regressionMinRuns, settings.timeoutMs - outcome.elapsedMs, settings.throughputRegressionPercent, deps.cancel?.signal);
    if (findings.regression !== undefined && !settings.failOnRegression)
        deps.warn(findings.regression, 'regression');
    if (findings.throughputRegression !== undefined && !settings.failOnRegression)
        deps.warn(findings.throughputRegression, 'throughput-regression');
    if (findings.drift !== undefined)
        deps.warn(findings.drift, 'drift');
    for (const n of findings.notices)
        deps.notice(n, 'history');
    return { engineLabel, phases, usualPhaseSeconds, ...findings };
}
const run_history_round1 = (x) => Math.round(x * 10) / 10;
/**
 * The `env-report` snapshot as the history keeps it: a credential never as its value, but as a keyed hash
 * (history/fingerprint.ts), so that a changed one is still told; unset variables are absent.
 */
function envRecord(entries, history) {
    let key = null;
    const masked = (e) => {
        const value = (0,env_report/* secretValueOf */.X)(e);
        if (value === undefined || history.file === undefined)
            return fingerprint/* MASKED */.uA;
        if (key === null)
            key = (0,fingerprint/* historySecretKey */.YS)(history.file);
        return (0,fingerprint/* maskedRecord */.rT)(value, key);
    };
    return Object.fromEntries(entries.flatMap((e) => (e.value === undefined ? [] : [[e.name, e.secret ? masked(e) : e.value]])));
}
/** The smoke test's medians for the history, when it measured them. */
function smokeRecord(outcome, settings) {
    const smoke = outcome.smoke;
    if (smoke?.ttftMs === undefined || smoke.decodeTokensPerSecond === undefined || settings.smoke === undefined)
        return {};
    return {
        ttftMs: run_history_round1(smoke.ttftMs),
        decodeTokensPerSecond: run_history_round1(smoke.decodeTokensPerSecond),
        smokeTokens: settings.smoke.tokens
    };
}

;// CONCATENATED MODULE: ./src/wait/startup-log.ts
/**
 * The server's log, read into the startup profile: its lines from before the wait (a server started elsewhere)
 * tell the phases so far; a log `start` has just begun afresh is read from its first line. `readLines` reads new
 * lines and returns the engine's own fatal line once seen; `readyLine` resolves once the engine's ready line is
 * read, `logLines` at the next new lines (the probe schedule brings a probe forward on either).
 */



function followLog({ server, profile, deps, waitStart }) {
    const { clock } = deps;
    const sayStartup = (events) => (0,profile_report/* startupLines */.VU)(events).forEach((l) => deps.log(progress/* gateLines */.HN.startup(clock.now() - waitStart, l)));
    const log = server.followLog((lines) => lines.forEach((l) => sayStartup(profile.earlier(l.text, clock.now(), l.number))));
    // Aborted once the engine's own ready line is read: every endpoint's next probe goes out at once.
    const readySeen = new AbortController();
    (0,external_node_events_.setMaxListeners)(0, readySeen.signal);
    const readyLine = (signal) => new Promise((resolve) => {
        if (readySeen.signal.aborted || signal.aborted)
            return resolve();
        const done = () => {
            readySeen.signal.removeEventListener('abort', done);
            signal.removeEventListener('abort', done);
            resolve();
        };
        readySeen.signal.addEventListener('abort', done, { once: true });
        signal.addEventListener('abort', done, { once: true });
    });
    // Waiting for the next new lines: each wait's resolver, called (and dropped) when lines come or its signal aborts.
    const waiting = new Set();
    const logLines = (signal) => new Promise((resolve) => {
        if (signal.aborted)
            return resolve();
        const done = () => {
            waiting.delete(done);
            signal.removeEventListener('abort', done);
            resolve();
        };
        waiting.add(done);
        signal.addEventListener('abort', done, { once: true });
    });
    const readLines = (lines) => {
        for (const l of lines)
            sayStartup(profile.line(l.text, clock.now(), l.number));
        if (profile.readyLineSeen)
            readySeen.abort();
        if (lines.length > 0)
            [...waiting].forEach((done) => done());
        const f = profile.fatal;
        return (f && {
            line: { number: f.lineNumber, text: f.line },
            cause: f.cause,
            engineLabel: profile.label
        });
    };
    return log === undefined ? { log, sayStartup, readLines } : { log, sayStartup, readLines, readyLine, logLines };
}

;// CONCATENATED MODULE: ./src/wait/ready-moment.ts
/**
 * When the server turned ready, for `startup-seconds` and the end of the startup's last phase: the truth, not the
 * moment a probe happened to go out. The answers bound it: after the last probe that was told "not ready" went
 * out, and by the first answer that said ready. Within those bounds the engine's ready line says when (by its own
 * stamp where it has one); a line from outside them (written before a probe was still told "not ready", a server
 * that says it is ready before it is) yields to the answers.
 */
function readyMoment({ readySeenAt, notReadySentAt, readyLineAt, now }) {
    if (readySeenAt === undefined)
        return now;
    if (readyLineAt === undefined)
        return readySeenAt;
    return Math.min(readySeenAt, Math.max(notReadySentAt ?? -Infinity, readyLineAt));
}

// EXTERNAL MODULE: ./src/engines/model-lists.ts
var model_lists = __webpack_require__(9778);
;// CONCATENATED MODULE: ./src/engines/match.ts
/**
 * Finds `wanted` among the listed models, from the strictest fit to the loosest: an id equal to it; equal but
 * for case; ending with `/<wanted>` (a path or an `org/name` repo id); containing it (so `kimi` finds
 * `/shared/kimi-k2.5-int4`). The first kind of fit that finds exactly one id wins; one that finds several is
 * ambiguous, since `llama-3.1-8b` among `llama-3.1-8b-instruct-lora-sql` and `llama-3.1-8b-instruct` would pick
 * whichever the server lists first, and `model-id` would then point the benchmark at it.
 */
function matchModel(models, wanted) {
    const exact = models.find((m) => m.id === wanted);
    if (exact)
        return { kind: 'found', model: exact, how: 'exact' };
    const needle = wanted.toLowerCase();
    const tiers = [
        ['case-insensitive', (id) => id === needle],
        ['path', (id) => id.endsWith(`/${needle}`)],
        ['contains', (id) => id.includes(needle)]
    ];
    for (const [how, fits] of tiers) {
        const found = models.filter((m) => fits(m.id.toLowerCase()));
        // the same id listed twice (a list that repeats an entry) is one model, not a choice
        if (found.length > 0 && found.every((m) => m.id === found[0].id))
            return { kind: 'found', model: found[0], how };
        if (found.length > 1)
            return { kind: 'ambiguous', candidates: found };
    }
    return { kind: 'missing' };
}
/** How a found model fits: `exact` for an id equal to it, but for case, or ending with `/<wanted>`; else `partial`. */
const matchKind = (how) => how === 'contains' ? 'partial' : 'exact';
/**
 * The listed id nearest to `wanted` (the fewest single-character edits, ignoring case), for a message that says
 * what the server serves instead: "kimi-k2" against ["Qwen/Qwen3-8B", "kimi-k2.5"] names "kimi-k2.5". Ids and
 * `wanted` are cut to 200 characters, so a hostile list cannot make this slow: 50 ids at most are compared.
 */
function nearestModel(ids, wanted) {
    let best;
    const w = wanted.toLowerCase().slice(0, 200);
    for (const id of ids.slice(0, 50)) {
        const d = editDistance(id.toLowerCase().slice(0, 200), w);
        if (best === undefined || d < best.d)
            best = { id, d };
    }
    return best?.id;
}
function editDistance(a, b) {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const row = [i];
        for (let j = 1; j <= b.length; j++)
            row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = row;
    }
    return prev[b.length];
}

// EXTERNAL MODULE: ./src/inputs/parse.ts
var parse = __webpack_require__(3718);
// EXTERNAL MODULE: ./src/runtime/text.ts
var runtime_text = __webpack_require__(5369);
;// CONCATENATED MODULE: ./src/wait/assess.ts
/**
 * Judges one probe's result against what the settings expect: ready, keep waiting, or stop now. The judgement is
 * data (src/facts/answer.ts); src/report/answer-report.ts words it.
 */






/** Whether two answers are the same answer (fields left out and fields undefined are alike). */
function sameAnswer(a, b) {
    return sameData(a, b);
}
function sameData(a, b) {
    if (a === b)
        return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
        return false;
    if (Array.isArray(a) !== Array.isArray(b))
        return false;
    const x = a;
    const y = b;
    return [...new Set([...Object.keys(x), ...Object.keys(y)])].every((k) => sameData(x[k], y[k]));
}
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH)/;
/** Codes told in the same words are the same answer. */
const SAME_ERROR = {
    UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
    PROXY_UND_ERR_CONNECT_TIMEOUT: 'PROXY_ETIMEDOUT'
};
/** `regexLimitMs` bounds how long `match-regex` may run on the body (what is left of the probe's time). */
function assess(result, expect, regexLimitMs = 1_000) {
    if (result.kind === 'error')
        return assessError(result);
    const { status, body } = result;
    const excerpt = (0,runtime_text/* detached */.ht)(body.slice(0, 200));
    const list = (0,model_lists/* readModelList */.EU)(result.json);
    const ids = list?.models.map((m) => m.id);
    const models = ids?.slice(0, MAX_KEPT_MODELS);
    const modelCount = ids && ids.length > MAX_KEPT_MODELS ? { modelCount: ids.length } : {};
    const answeredBy = result.redirectedTo === undefined ? {} : { answeredBy: result.redirectedTo };
    const base = { status, models, ...modelCount, excerpt, ...answeredBy };
    const said = (0,runtime_text/* describeBody */.MP)(result.body, result.contentType, result.json) || undefined;
    const judged = (answer, extra = {}) => ({
        ...base,
        ...extra,
        state: answer.state,
        answer
    });
    if (status === 401 || status === 403)
        return judged({ state: 'fatal', status, said }, { fatalReason: 'unauthorized' });
    if (!(0,parse/* statusAccepted */.Kt)(expect.status, status))
        return judged({ state: 'waiting', status, said });
    // The summary names the listed models (the first few, and how many), or else what the body says.
    const answered = ids === undefined
        ? { status, said }
        : {
            status,
            models: ids.slice(0, MAX_NAMED_MODELS),
            ...(ids.length > MAX_NAMED_MODELS ? { modelCount: ids.length } : {})
        };
    const waiting = (missing) => judged({ state: 'waiting', ...answered, missing });
    let modelId;
    let modelMatch;
    if (expect.model !== undefined) {
        if (list === undefined)
            return waiting({ what: 'model-list', model: expect.model, truncated: result.truncated });
        const match = matchModel(list.models, expect.model);
        if (match.kind === 'ambiguous') {
            // the first MAX_CANDIDATES, each clipped, and how many: 4000 long ids are not one 855 KB annotation
            const candidates = match.candidates.slice(0, MAX_CANDIDATES).map((m) => (0,runtime_text/* clip */.$Q)(m.id, MAX_ID_CHARS));
            const count = match.candidates.length;
            const ambiguous = { model: expect.model, candidates, count };
            return judged({ state: 'fatal', ...answered, ambiguous }, { fatalReason: 'ambiguous-model', candidates, ...(count > candidates.length ? { candidateCount: count } : {}) });
        }
        if (match.kind === 'missing')
            return waiting({ what: 'model', model: expect.model });
        const found = match.model;
        // `model-match: exact`: an id that only contains the name is some other model (kimi-k2 in kimi-k2.5-int4)
        if (matchKind(match.how) === 'partial' && expect.modelMatch === 'exact')
            return waiting({ what: 'model', model: expect.model, partial: found.id });
        if (found.unloaded)
            return { ...waiting({ what: 'model-unloaded', id: found.id }), modelState: 'unloaded' };
        if (found.loading !== undefined)
            return { ...waiting({ what: 'model-loaded', id: found.id, loading: found.loading }), modelState: 'loading' };
        modelId = found.id;
        modelMatch = matchKind(match.how);
    }
    if (expect.match !== undefined && !body.includes(expect.match))
        return waiting({ what: 'match', match: expect.match });
    if (expect.matchRegex !== undefined) {
        const pattern = String(expect.matchRegex);
        const matched = testWithin(expect.matchRegex, body, regexLimitMs);
        if (matched === undefined)
            return waiting({ what: 'match-regex-in-time', pattern });
        if (!matched)
            return waiting({ what: 'match-regex', pattern });
    }
    return judged({ state: 'ready', ...answered }, { modelId, modelMatch });
}
/**
 * OpenSSL's words when the first bytes back are not TLS: a plain HTTP server answering a TLS hello with a
 * 400 page (`wrong version number`, or `packet length too long` from some servers).
 */
const PLAIN_HTTP = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/;
function assessError(result) {
    const judged = (answer, extra = {}) => ({
        ...extra,
        state: answer.state,
        answer,
        status: result.status
    });
    if (TLS_CODES.test(result.code) && PLAIN_HTTP.test(result.code)) {
        const plainHttp = { redirectedTo: result.redirectedTo };
        return judged({ state: 'fatal', error: result.code, plainHttp }, { fatalReason: 'tls' });
    }
    if (TLS_CODES.test(result.code)) {
        // Node 24 adds advice about its own flags ("; if the root CA is installed locally, try \u2026 --use-system-ca"),
        // which an action cannot use: the inputs that can help are named instead.
        return judged({ state: 'fatal', error: result.code, said: result.message.split(';')[0] }, { fatalReason: 'tls' });
    }
    const state = result.status === undefined ? 'down' : 'waiting';
    if (result.code === 'TIMEOUT')
        return judged({ state, status: result.status, error: 'TIMEOUT' });
    const error = SAME_ERROR[result.code] ?? result.code;
    // An error met on the way through a proxy is the proxy's (`PROXY_<code>`, see the probe).
    const proxy = result.proxy !== undefined && result.code.startsWith('PROXY_') ? result.proxy : undefined;
    // A code without words of its own is told by its message.
    const said = hasWords(result.code, proxy !== undefined) ? undefined : result.message;
    return judged({ state, status: result.status, error, proxy, said });
}
/**
 * Whether the report tells an error code in words of its own (else the answer quotes its message): a proxy's
 * (`viaProxy`: a `PROXY_<code>`) by what the proxy did, or failing that by the code's own words.
 */
function hasWords(code, viaProxy) {
    const worded = (codes, c) => codes.includes(c);
    if (!viaProxy)
        return worded(facts_answer/* WORDED_ERRORS */.Eu, code);
    const own = code.slice('PROXY_'.length);
    return worded(facts_answer/* WORDED_PROXY_ERRORS */.Rh, own) || worded(facts_answer/* WORDED_ERRORS */.Eu, own);
}
/** An answer names this many listed models at most: a list of 60,000 would make every line megabytes long. */
const MAX_NAMED_MODELS = 10;
/** Ambiguous-model candidates named (annotation, summary, `check`, `--json`); the rest are counted. */
const MAX_CANDIDATES = 20;
const MAX_ID_CHARS = 200;
/**
 * An answer's model ids kept past the probe (its `models`, the `models` output): a fleet of servers listing
 * 40,000 models each would otherwise hold hundreds of thousands of strings and write an output of megabytes.
 */
const MAX_KEPT_MODELS = 1000;

// EXTERNAL MODULE: ./src/http/probe.ts
var probe = __webpack_require__(242);
;// CONCATENATED MODULE: ./src/wait/generation-check.ts
/** `probe-generation`: one tiny generation request, proof that a listed model can actually produce a token. */




const ANY_2XX = { status: [[200, 299]] };
function createGenerator({ base, route, headers, clock, caCert, insecureTls, secrets }) {
    const client = (0,probe/* createHttpClient */.uT)({ caCert, insecureTls, secrets });
    // Index of the first request worth sending: moves past a route the server turns out not to have.
    let first = 0;
    return {
        async generate(model, timeoutMs, signal) {
            const deadline = clock.now() + timeoutMs;
            for (let i = first;; i++) {
                const { path, body } = route.requests[i];
                const sentAt = clock.now();
                const result = await client.send({ url: new URL(`${base}${path}`), method: 'POST', headers, json: body(model) }, deadline - sentAt, signal);
                const latencyMs = clock.now() - sentAt;
                const request = `POST ${path}`;
                if (result.kind === 'http' &&
                    (result.status === 404 || result.status === 405) &&
                    i + 1 < route.requests.length) {
                    first = i + 1;
                    continue;
                }
                const assessment = assess(result, ANY_2XX);
                // Any 2xx is not enough: an error object, an empty body or a 202 is no token. Only a completion in the
                // engine's own format proves the model generated.
                if (assessment.state === 'ready' && result.kind === 'http' && !(0,model_lists/* isCompletion */.Hg)(route, result.json)) {
                    const said = (0,runtime_text/* describeBody */.MP)(result.body, result.contentType, result.json) || undefined;
                    const answer = {
                        state: 'waiting',
                        status: result.status,
                        said,
                        missing: { what: 'completion', route: route.name }
                    };
                    return { assessment: { ...assessment, state: 'waiting', answer }, request, latencyMs };
                }
                // A completion body says nothing worth a log line; its arrival is the news.
                if (assessment.state === 'ready')
                    return { assessment: { ...assessment, answer: { state: 'ready' }, excerpt: undefined }, request, latencyMs };
                return { assessment, request, latencyMs };
            }
        },
        close: () => client.close()
    };
}

// EXTERNAL MODULE: ./src/engines/index.ts + 9 modules
var engines = __webpack_require__(9221);
;// CONCATENATED MODULE: ./src/engines/readiness.ts


/**
 * The failed load in a Triton repository index: of `model` when given (any version), else of any model (a
 * server with no model named is not ready while any failed). Undefined: none failed, or not an index.
 */
function loadFailureIn(json, model) {
    if (!Array.isArray(json))
        return undefined;
    for (const entry of json) {
        const e = entry;
        if (e === null || typeof e !== 'object' || e.state !== 'UNAVAILABLE' || typeof e.name !== 'string')
            continue;
        // an unloaded model is UNAVAILABLE too, with the reason "unloaded": not a failure
        const reason = typeof e.reason === 'string' ? e.reason : '';
        if (reason === '' || reason === 'unloaded')
            continue;
        // the engine's words on one line, bounded, and apart from the body they came in
        if (model === undefined || e.name === model)
            return { model: (0,runtime_text/* clip */.$Q)(e.name, 200), reason: (0,runtime_text/* clip */.$Q)(reason, 1000) };
    }
    return undefined;
}
/** Each engine's `pick` of its record, by engine. */
const byEngine = (pick) => Object.fromEntries(engines/* ENGINE_RECORDS */.qp.map((r) => [r.name, pick(r)]));
const ENGINE_READINESS = byEngine((r) => r.readiness);
const ENGINE_LOAD_FAILURES = byEngine((r) => r.loadFailure);
/** Three in a row end the wait (`reason=engine-dead`). */
const DEAD_ENGINE_ANSWERS = byEngine((r) => r.deadAnswer);
/** llama.cpp's router mode, which loads other models when asked, aside (`listsAsRouter`). */
const SERVES_ONE_MODEL = byEngine((r) => r.servesOneModel);
/** How many dead-engine answers in a row end the wait: one could be a single request's failure. */
const DEAD_ANSWERS_IN_A_ROW = 3;
/**
 * Whether a model list is llama.cpp's router mode's (tools/server/server-models.cpp: each entry has a `status`
 * object, unloaded \u2192 loading \u2192 loaded): it loads other models when asked, so a list without the model may change.
 */
function listsAsRouter(json) {
    const data = json?.data;
    return Array.isArray(data) && data.some((e) => typeof e?.status === 'object');
}
/** The list paths whose prefix is the server's base (a proxy prefix before them is kept). */
const LIST_PATH = /\/(v1\/models(\/[^/]*)?|models|info|api\/tags|api\/ps|v2\/health\/ready|v2\/models\/[^/]+(\/ready)?)\/?$/;
/** The server's base for a model-list (or health) `url`: its origin and any proxy prefix before the known path. */
function serverBase(url) {
    const m = LIST_PATH.exec(url.pathname);
    return `${url.origin}${m ? url.pathname.slice(0, m.index) : ''}`;
}
/** The URL of one readiness `check` for a model-list `url`, naming `model` where the route names one. */
function readinessCheckUrl(check, url, model) {
    const path = model === undefined ? (check.withoutModel ?? check.path) : check.path.replace('{model}', encodeURIComponent(model));
    return new URL(`${serverBase(url)}${path}`);
}
/** Whether a readiness answer (`status`, its JSON body) says ready. */
function saysReady(ready, status, json) {
    if (!ready.statuses.includes(status))
        return false;
    const not = ready.notReadyWhen;
    if (not === undefined || json === null || typeof json !== 'object')
        return true;
    return json[not.field] !== not.value;
}

// EXTERNAL MODULE: ./src/report/lifecycle-report.ts
var lifecycle_report = __webpack_require__(7205);
;// CONCATENATED MODULE: ./src/wait/engine-readiness.ts
/**
 * An endpoint's engine's own word on readiness (src/engines/readiness.ts): its readiness routes asked in order
 * once the model is listed, paced as each route needs (SGLang's /health: one at a time, once a second at most, for
 * all the endpoints of one server); `load: true` waking a sleeping engine; a failed load (Triton's repository
 * index) and a dead engine core told as fatal answers.
 */




const paces = new WeakMap();
/** The pace the endpoints of one gate share (`owner`: the gate's shared state). */
const paceOf = (owner) => {
    let pace = paces.get(owner);
    if (pace === undefined)
        paces.set(owner, (pace = new Map()));
    return pace;
};
function engineReadiness(o) {
    const client = (0,probe/* createHttpClient */.uT)(o.tls);
    const pace = paceOf(o.owner);
    const e = { o, client, pace, saidReady: new Set(), woke: false };
    return {
        async check(engine, model, timeoutMs, signal) {
            const checks = engine === undefined ? [] : ENGINE_READINESS[engine];
            if (checks.length === 0)
                return undefined;
            // side by side, not one after the other: each is a flag check (or paced alone), and a remote server's
            // round trips must not add up before a ready answer is seen
            const answers = await Promise.all(checks.map((c) => ask(e, c, engine, model, timeoutMs, signal)));
            // the one that decides: a dead engine first, then the first not ready, else the last (all ready)
            const state = (a) => a.assessment.state;
            return answers.find((a) => state(a) === 'fatal') ?? answers.find((a) => state(a) !== 'ready') ?? answers.at(-1);
        },
        async loadFailure(engine, model, timeoutMs, signal) {
            const c = engine === undefined ? undefined : ENGINE_LOAD_FAILURES[engine];
            if (c === undefined)
                return undefined;
            const url = new URL(`${serverBase(o.url)}${c.path}`);
            // asked beside the probes, never in their way: skipped while too soon since the last, or one in flight
            const p = pace.get(`${c.method} ${url.href}`);
            if (p !== undefined && (p.inFlight !== undefined || o.clock.now() - p.lastSentAt < c.minGapMs))
                return undefined;
            const result = await paced(e, url, c.method, c.minGapMs, true, timeoutMs, signal);
            o.debug?.(`${url.pathname}: ${result.kind === 'http' ? `HTTP ${result.status}` : result.code}`);
            const failed = result.kind === 'http' && result.status === 200 ? loadFailureIn(result.json, model) : undefined;
            if (failed === undefined)
                return undefined;
            const request = `${o.label(engine)} POST ${url.pathname}`;
            const answer = { state: 'fatal', loadFailed: { request, ...failed } };
            return { state: 'fatal', fatalReason: 'load-failed', answer };
        },
        deadAnswer(engine, answer) {
            const pattern = engine === undefined ? undefined : DEAD_ENGINE_ANSWERS[engine];
            if (pattern === undefined || answer.state === 'ready')
                return false;
            return pattern.test(`${answer.excerpt ?? ''}\n${answer.answer.said ?? ''}`);
        },
        close: () => client.close()
    };
}
/** Sends one request, waiting out the route's gap and any request to it in flight (bounded by `timeoutMs`). */
async function paced(e, url, method, gapMs, oneAtATime, timeoutMs, signal) {
    const { o, pace } = e;
    const deadline = o.clock.now() + timeoutMs;
    const key = `${method} ${url.href}`;
    for (;;) {
        const p = pace.get(key);
        if (p?.inFlight !== undefined && oneAtATime)
            await p.inFlight.catch(() => undefined);
        const waitMs = p === undefined ? 0 : p.lastSentAt + gapMs - o.clock.now();
        if (waitMs > 0)
            await o.clock.sleep(Math.min(waitMs, Math.max(0, deadline - o.clock.now())), signal);
        if (signal?.aborted)
            return { kind: 'error', code: 'ABORTED', message: 'aborted' };
        // another endpoint may have taken the turn meanwhile
        const now = pace.get(key);
        if (oneAtATime && now?.inFlight !== undefined && o.clock.now() < deadline)
            continue;
        break;
    }
    const sent = e.client.send({ url, method, headers: o.headers }, Math.max(1, deadline - o.clock.now()), signal);
    const entry = { lastSentAt: o.clock.now(), inFlight: sent };
    pace.set(key, entry);
    try {
        return await sent;
    }
    finally {
        if (entry.inFlight === sent)
            entry.inFlight = undefined;
    }
}
/**
 * One readiness route, asked and judged: ready, waiting, down, or fatal (a refused key; a dead-after-ready status, the
 * engine core dead); a first not-ready answer of a sleeping engine sends the wake-up (`load: true`), once a wait.
 */
async function ask(e, c, engine, model, timeoutMs, signal) {
    const { o, saidReady } = e;
    const url = readinessCheckUrl(c, o.url, model);
    const sentAt = o.clock.now();
    const result = await paced(e, url, c.method, c.minGapMs, c.oneAtATime, timeoutMs, signal);
    o.debug?.(`${url.pathname}: ${result.kind === 'http' ? `HTTP ${result.status}` : result.code}`);
    const request = (0,lifecycle_report/* engineReadinessRequest */.oA)(o.label(engine), url);
    const latencyMs = o.clock.now() - sentAt;
    const base = assess(result, { status: [[200, 200]] });
    // 401, 403 and TLS errors end the wait as they do on the model list
    if (base.state === 'fatal')
        return { assessment: base, request, latencyMs };
    const status = result.kind === 'http' ? result.status : undefined;
    const ready = status !== undefined && result.kind === 'http' && saysReady(c.ready, status, result.json);
    const key = url.href;
    if (status !== undefined && saidReady.has(key) && c.deadAfterReady?.includes(status)) {
        const answer = { ...base.answer, state: 'fatal', engineDead: { request, by: 'health', status } };
        return { assessment: { ...base, state: 'fatal', fatalReason: 'engine-dead', answer }, request, latencyMs };
    }
    if (ready)
        saidReady.add(key);
    const state = ready ? 'ready' : base.state === 'down' ? 'down' : 'waiting';
    if (!ready && c.wake !== undefined && o.load && !e.woke && status !== undefined) {
        e.woke = true;
        const wake = new URL(`${serverBase(o.url)}${c.wake}`);
        o.wokeUp(o.label(engine), wake);
        void e.client
            .send({ url: wake, method: 'POST', headers: o.headers }, Math.max(1, o.leftMs()), signal)
            .then((r) => o.debug?.(`${wake.pathname}: ${r.kind === 'http' ? `HTTP ${r.status}` : r.code}`));
    }
    // a ready answer other than 200 (vLLM's /is_sleeping 404 without dev mode) is told as the status it is
    return { assessment: { ...base, state, answer: { ...base.answer, state } }, request, latencyMs };
}

;// CONCATENATED MODULE: ./src/engines/load.ts
/**
 * Load on demand (`load: true`): servers that list models they have not loaded, and the request that asks one to
 * load, as each engine's record says (its `load`): llama.cpp's router mode lists every model file as "unloaded" and
 * loads one by its listed id; Ollama's `/api/ps` lists the models in memory and loads one on a generate request
 * (see the research notes on model servers).
 */


/** The model-list paths, after which the server's base ends (a proxy prefix before them is kept). */
const load_LIST_PATH = /\/(v1\/models|models|api\/ps)\/?$/;
const LOADS = engines/* ENGINE_RECORDS */.qp.flatMap((r) => (r.load === undefined ? [] : [r.load]));
/**
 * What asks the server at `url` to load the model, given its last answer; undefined when the answer shows no
 * model waiting to be asked for (loaded, loading, or not a server that loads on demand).
 */
function loadRequest(url, answer, model) {
    const m = load_LIST_PATH.exec(url.pathname);
    if (m === null || answer.status !== 200 || model === undefined || answer.models === undefined)
        return undefined;
    const base = `${url.origin}${url.pathname.slice(0, m.index)}`;
    const unloaded = LOADS.find((l) => l.when === 'unloaded');
    if (unloaded !== undefined && answer.modelState === 'unloaded') {
        // the listed id the assessment found unloaded: the server loads by its own id
        const found = matchModel(answer.models.map((id) => ({ id })), model);
        if (found.kind === 'found')
            return { url: new URL(`${base}${unloaded.path}`), body: unloaded.body(found.model.id) };
    }
    const absent = LOADS.find((l) => l.when === 'absent' && l.listPath === m[1]);
    if (absent !== undefined && answer.state === 'waiting')
        return { url: new URL(`${base}${absent.path}`), body: absent.body(model) };
    return undefined;
}

;// CONCATENATED MODULE: ./src/wait/schedule.ts
/**
 * When the next HTTP probe goes out while the server answers but is not ready yet (503 while loading, a list
 * without the model, /health 503 through a warm-up). Pure: a function of the state the loop hands it, so that it is
 * tested on a fake clock. Connections refused are not its concern: the port watch stands in for probes then.
 */
/** The gap near the expected ready moment: a probe costs the server a few microseconds, a late ready a job's time. */
const DENSE_MS = 200;
/**
 * How far before the expected moment dense probes begin: a share of the expected load (its length varies from run
 * to run by about that much), and at least half a second (the estimate itself is known to a tenth of a second).
 */
const LEAD_MIN_MS = 500;
const LEAD_SHARE = 0.2;
/**
 * Without an expected moment the gap grows with the time the server has been loading (a quarter of it): a load
 * that has taken 2 s is probed every 500 ms, one that has taken 20 s every `interval`. The lag stays a share of
 * the load, and the requests grow with its logarithm, not its length.
 */
const BACKOFF_SHARE = 0.25;
/** The shortest gap whatever the state: a server that answers at once must not turn the loop into a busy one. */
const MIN_GAP_MS = 50;
/** The moment the next probe goes out (never past the deadline). */
function nextProbeAt(s) {
    const asked = s.retryAfterMs === undefined ? 0 : Math.min(s.retryAfterMs, s.intervalMs * 4);
    const pace = s.mode === 'fixed' ? s.sentAt + s.intervalMs : s.sentAt + adaptiveGap(s);
    // A 429 or 503 may ask for a longer pause: granted up to 4 intervals.
    return Math.min(Math.max(pace, s.now + asked, s.sentAt + MIN_GAP_MS), s.deadline);
}
function adaptiveGap(s) {
    const since = s.answeringSince;
    if (since === undefined)
        return s.intervalMs; // not loading: a list without the model, a 404
    // A followed log changes nothing here for the worse: its ready line wakes the loop at once, new lines wake it
    // soon (see `probeOnLogLines`), and what its phases tell may bring probes forward, never put them off: a ready
    // line not (yet) recognised must not leave the server less probed than without a log (a line whose wording had
    // changed once went unseen for 5 s, `interval`, and the startup time recorded with it).
    const plain = gapBy(s, since, s.usualAnsweringMs === undefined ? undefined : since + s.usualAnsweringMs);
    return s.readyAt === undefined ? plain : Math.min(plain, gapBy(s, since, s.readyAt));
}
/** The gap when the server is expected ready at `readyAt` (undefined: unknown). */
function gapBy(s, answeringSince, readyAt) {
    const clamp = (ms) => Math.min(s.intervalMs, Math.max(DENSE_MS, ms));
    const loadedMs = Math.max(0, s.sentAt - answeringSince);
    if (readyAt === undefined)
        return clamp(loadedMs * BACKOFF_SHARE);
    const lead = Math.max(LEAD_MIN_MS, (readyAt - answeringSince) * LEAD_SHARE);
    const denseFrom = readyAt - lead;
    // Far from it: sparse, but the probe that opens the dense window lands on its start.
    if (s.sentAt < denseFrom)
        return Math.min(s.intervalMs, Math.max(DENSE_MS, denseFrom - s.sentAt));
    // Near it, and past it: dense, then backing off with the overrun (the estimate was wrong, by how much is unknown).
    return clamp(DENSE_MS + Math.max(0, s.sentAt - readyAt) * BACKOFF_SHARE);
}
/**
 * The least time between a probe and the next one a burst of new log lines brings forward. Lines come in bursts
 * as an engine moves from one step to the next, and the last step's burst is its ready line, whatever its words:
 * a probe soon after each sees a server that turned ready without a line we recognise within this time. Spaced so
 * that a progress bar redrawn all through a long load costs at most five requests a second, each a few
 * microseconds' work for the server.
 */
const LOG_BURST_GAP_MS = 200;
/** The next probe, brought forward by new log lines read at `now` (never later than it was, never past it). */
function probeOnLogLines(sentAt, now, nextAt) {
    return Math.min(nextAt, Math.max(now, sentAt + LOG_BURST_GAP_MS));
}

;// CONCATENATED MODULE: ./src/wait/cannot-change.ts
/**
 * States that waiting cannot change, as decisions on the loop's answers: a one-model engine listing another model
 * (`wrong-model`), and an engine whose generations keep answering its own dead-engine error (`engine-dead`).
 * Each turns the answer that settles it into a fatal one; the loop then ends with its reason.
 */


/**
 * `afterMs` (`wrong-model-after`; 0: never) of the same list without `model`, counted from its first such answer,
 * from an engine that `servesOneModel()` says serves the models it was started with (vLLM, SGLang, TGI,
 * llama.cpp outside router mode). A list that changes, or an engine not known to serve one model, starts over.
 */
function wrongModelWatch(afterMs, servesOneModel) {
    let since;
    return {
        see(a, now) {
            const missing = a.answer.missing;
            if (afterMs <= 0 || a.state !== 'waiting' || missing?.what !== 'model' || a.models === undefined) {
                since = undefined;
                return a;
            }
            if (missing.partial !== undefined || a.models.length === 0 || !servesOneModel()) {
                since = undefined;
                return a;
            }
            const list = JSON.stringify(a.models);
            if (since?.list !== list)
                since = { at: now, list };
            const forMs = now - since.at;
            if (forMs < afterMs)
                return a;
            const serving = a.answer.models ?? a.models;
            // the nearest of several names; one listed name is named already
            const nearest = a.models.length > 1 ? nearestModel(a.models, missing.model) : undefined;
            const wrongModel = { model: missing.model, serving, nearest, forMs };
            const answer = { ...a.answer, state: 'fatal', missing: undefined, wrongModel };
            return { ...a, state: 'fatal', fatalReason: 'wrong-model', answer };
        }
    };
}
function deadEngineStreak() {
    let count = 0;
    return {
        see(a, dead, request) {
            count = dead ? count + 1 : 0;
            if (count < DEAD_ANSWERS_IN_A_ROW)
                return a;
            const engineDead = { request, by: 'generations', status: a.answer.generation?.answer.status, count };
            return { ...a, state: 'fatal', fatalReason: 'engine-dead', answer: { ...a.answer, state: 'fatal', engineDead } };
        }
    };
}

;// CONCATENATED MODULE: ./src/wait/loop.ts
/** The wait loop: probe, judge, report changes, until ready, a fatal answer, a halt, or the deadline. */





/**
 * A timeline keeps this many first and this many last changes, and counts those between: a model list that
 * changes on every probe must not grow memory, the log and the summary without limit.
 */
const TIMELINE_ENDS = 20;
function addChange(timeline, entry) {
    timeline.push(entry);
    if (timeline.length <= 2 * TIMELINE_ENDS + 1)
        return;
    // the oldest of the last changes goes; the next one carries the count
    const [gone] = timeline.splice(TIMELINE_ENDS, 1);
    timeline[TIMELINE_ENDS] = { ...timeline[TIMELINE_ENDS], dropped: (gone.dropped ?? 0) + 1 };
}
async function waitForModel(opts, deps) {
    const w = startWait(opts, deps);
    const { clock, deadline, signal } = w;
    let done;
    for (;;) {
        const sentAt = clock.now();
        if ((done = haltedOutcome(w)))
            return done;
        if (sentAt >= deadline)
            return timeUp(w);
        w.attempts++;
        const budgetMs = Math.min(opts.requestTimeoutMs, deadline - sentAt);
        const probed = await probeOnce(deps, opts.expect, sentAt, budgetMs, signal);
        // An answer cut short by the halt, or one that came in as the server died, says nothing.
        if ((done = haltedOutcome(w)))
            return done;
        // A probe cut short by the deadline says nothing new: the answer before it is the one worth reporting.
        if (budgetMs < opts.requestTimeoutMs && probed.timedOut && w.last)
            return timeUp(w);
        let assessment = probed.assessment;
        if (assessment.state === 'ready' && deps.engineReady) {
            w.listedMs ??= clock.now() - w.start;
            const budgetMs = budgetLeftMs(w);
            const check = await deps.engineReady(assessment.modelId, budgetMs, signal);
            if ((done = haltedOutcome(w)))
                return done;
            if (check !== undefined)
                assessment = foldEngineReadiness(w, assessment, check);
        }
        const failedBefore = w.generationFailed;
        w.generationFailed = false;
        if (assessment.state === 'ready' && w.streak + 1 >= opts.successThreshold && deps.generate) {
            const generationBudgetMs = budgetLeftMs(w);
            const check = await deps.generate(assessment.modelId, generationBudgetMs, signal);
            if ((done = haltedOutcome(w)))
                return done;
            // Likewise a generation request cut short by the deadline: the failure before it explains more.
            if (generationBudgetMs < opts.requestTimeoutMs && check.assessment.state === 'down' && w.last) {
                return finish(w, failedBefore ? 'generation-failed' : 'timeout');
            }
            assessment = foldGeneration(w, assessment, check);
        }
        if (assessment.state === 'waiting' && probed.answered && deps.loadFailure) {
            const failed = await deps.loadFailure(budgetLeftMs(w), signal);
            if ((done = haltedOutcome(w)))
                return done;
            // the probe's own status and list stay the answer's: the index only says why it will not change
            if (failed !== undefined)
                assessment = { ...failed, status: assessment.status, models: assessment.models };
        }
        const now = clock.now();
        assessment = w.wrongModel.see(assessment, now);
        noteAnswer(w, assessment, now);
        if ((done = verdict(w, assessment, sentAt, now)))
            return done;
        // not over yet: sleep until the next probe is due, or until a waker says to probe sooner
        const portWatch = deps.portWatch;
        if (probed.refused && portWatch) {
            const untilMs = portWaitMs(w, portWatch, sentAt);
            await sleepUntilWoken(clock, untilMs, [(wake) => portWatch.opened(wake), readyLine(w)], signal);
            // a port that shows as open yet refuses must not turn the loop into a busy one
            const earliest = Math.min(sentAt + MIN_PROBE_GAP_MS, deadline);
            if (clock.now() < earliest)
                await clock.sleep(earliest - clock.now(), signal);
        }
        else {
            const next = nextScheduledProbe(w, probed, sentAt, now);
            const woke = await sleepUntilWoken(clock, next - clock.now(), [readyLine(w), deps.logLines], signal);
            // New lines in the log: the server is moving on, perhaps to ready in words we do not know. A probe soon;
            // at once when the same lines held the ready line (both wakers fire, and this one may win the race).
            if (woke === 1 && !w.readyLineWoke) {
                const sooner = probeOnLogLines(sentAt, clock.now(), next);
                await sleepUntilWoken(clock, sooner - clock.now(), [readyLine(w)], signal);
            }
        }
    }
}
/** A wait's state before its first probe; the clock is read here once, for `start` (unless the caller gave it). */
function startWait(opts, deps) {
    const { clock } = deps;
    const start = deps.startedAt ?? clock.now();
    return {
        opts,
        deps,
        clock,
        start,
        deadline: start + opts.timeoutMs,
        timeline: [],
        wrongModel: wrongModelWatch(opts.wrongModelAfterMs ?? 0, () => deps.servesOneModel?.() ?? false),
        deadStreak: deadEngineStreak(),
        signal: deps.halter?.signal,
        // the rest (last answer, first response, generation, ...) is undefined until the loop sees it
        attempts: 0,
        streak: 0,
        models: [],
        generationFailed: false,
        quietSince: start,
        readyLineWoke: false
    };
}
/** The outcome of the wait as it stands now. */
function finish(w, reason, halt) {
    const { engineReadiness, readySeenAt, notReadySentAt } = w;
    return {
        ready: reason === 'ready',
        reason,
        elapsedMs: w.clock.now() - w.start,
        attempts: w.attempts,
        last: w.last,
        models: w.models,
        firstResponseMs: w.firstResponseMs,
        generationMs: w.generationMs,
        halt,
        ...(engineReadiness === undefined ? {} : { engineReadiness }),
        timeline: w.timeline,
        ...(reason === 'ready' ? { readySeenAt, notReadySentAt } : {})
    };
}
/** The outcome when the wait was halted (checked before each probe and after each request); undefined: not halted. */
function haltedOutcome(w) {
    const halt = w.deps.halter?.halted;
    return halt ? finish(w, halt.reason, halt) : undefined;
}
/** Out of time: a generation that failed last is the reason, else the timeout. */
const timeUp = (w) => finish(w, w.generationFailed ? 'generation-failed' : 'timeout');
/** What a request after the probe may take: the request timeout, or what is left of the wait, 1 ms at least. */
const budgetLeftMs = (w) => Math.max(1, Math.min(w.opts.requestTimeoutMs, w.deadline - w.clock.now()));
/** The engine's own readiness answer, folded into the listed answer and kept for the outcome's lifecycle. */
function foldEngineReadiness(w, assessment, check) {
    const folded = withEngineReadiness(assessment, check);
    const engineReadiness = { request: check.request, listedMs: w.listedMs, readyMs: w.engineReadiness?.readyMs };
    w.engineReadiness = engineReadiness;
    if (check.assessment.state === 'ready')
        engineReadiness.readyMs ??= w.clock.now() - w.start;
    return folded;
}
/** A generation check, folded into the answer; a failed one is kept for the time-up reason and the dead streak. */
function foldGeneration(w, assessment, check) {
    const folded = withGeneration(assessment, check);
    if (check.assessment.state === 'ready')
        w.generationMs = check.latencyMs;
    else
        w.generationFailed = folded.state !== 'fatal';
    const dead = check.assessment.state !== 'ready' && (w.deps.deadGeneration?.(check.assessment) ?? false);
    return w.deadStreak.see(folded, dead, check.request);
}
/** Keeps what an answer says (first response, models) and tells it: a change at once, the same one with progress. */
function noteAnswer(w, assessment, now) {
    const { last } = w;
    const elapsedMs = now - w.start;
    if (assessment.status !== undefined)
        w.firstResponseMs ??= elapsedMs;
    if (assessment.models !== undefined)
        w.models = assessment.models;
    if (!sameAnswer(assessment.answer, last?.answer)) {
        const lost = assessment.state === 'down' && last !== undefined && last.state !== 'down' && w.firstResponseMs !== undefined;
        addChange(w.timeline, { elapsedMs, answer: keptAnswer(assessment.answer), ...(lost ? { lost } : {}) });
        w.deps.onEvent?.({ type: lost ? 'lost' : 'change', elapsedMs, attempt: w.attempts, assessment });
        w.quietSince = now;
    }
    else if (now - w.quietSince >= w.opts.progressIntervalMs) {
        w.deps.onEvent?.({ type: 'progress', elapsedMs, attempt: w.attempts, assessment });
        w.quietSince = now;
    }
    w.last = assessment;
}
/** Whether this answer ends the wait (fatal, ready enough times in a row, or a one-shot check); undefined: go on. */
function verdict(w, assessment, sentAt, now) {
    if (assessment.state === 'fatal')
        return finish(w, assessment.fatalReason ?? 'timeout');
    w.streak = assessment.state === 'ready' ? w.streak + 1 : 0;
    if (w.streak === 1)
        w.readySeenAt = now;
    if (w.streak === 0)
        w.notReadySentAt = sentAt;
    if (w.streak >= w.opts.successThreshold)
        return finish(w, 'ready');
    if (w.opts.once)
        return timeUp(w);
    return undefined;
}
/** The log's ready line as a waker, until it has woken the loop once; undefined: none (or spent). */
function readyLine(w) {
    const seen = w.deps.readyLine;
    if (seen === undefined || w.readyLineWoke)
        return undefined;
    return (signal) => seen(signal).then(() => void (w.readyLineWoke ||= !signal.aborted));
}
/** How long to watch a refused port before the next probe. */
function portWaitMs(w, portWatch, sentAt) {
    // While a local port is closed the watch is the probe; HTTP probes then go out with the progress lines.
    const spacing = portWatch.local ? Math.max(w.opts.intervalMs, w.opts.progressIntervalMs) : w.opts.intervalMs;
    return Math.min(sentAt + spacing, w.deadline) - w.clock.now();
}
/** When the schedule sends the next probe (see schedule.ts), counting the load from when the server began answering. */
function nextScheduledProbe(w, probed, sentAt, now) {
    w.answeringSince = probed.answered ? (w.answeringSince ?? sentAt) : undefined;
    return nextProbeAt({
        mode: w.opts.schedule ?? 'fixed',
        intervalMs: w.opts.intervalMs,
        sentAt,
        now,
        answeringSince: w.answeringSince,
        readyAt: w.deps.readyAt?.(now),
        usualAnsweringMs: w.deps.usualAnsweringMs,
        retryAfterMs: probed.retryAfterMs,
        deadline: w.deadline
    });
}
const MIN_PROBE_GAP_MS = 50;
/**
 * An answer as the timeline keeps it: the ids it names cut as its words cut them. The timeline keeps up to
 * 2 \u00d7 TIMELINE_ENDS + 1 answers, and a list of long ids changing on every probe must not keep each id whole in each.
 */
function keptAnswer(answer) {
    const nested = (n) => n && { ...n, answer: keptAnswer(n.answer) };
    return {
        ...answer,
        ...(answer.models && { models: answer.models.map((id) => (0,runtime_text/* clip */.$Q)(id, facts_answer/* NAMED_ID_CHARS */.eA)) }),
        ...(answer.generation && { generation: nested(answer.generation) }),
        ...(answer.engineReadiness && { engineReadiness: nested(answer.engineReadiness) })
    };
}
/**
 * One probe, judged. Only the judgement and the few facts the schedule needs leave this function: the answer
 * itself (up to 1 MiB of text and its parsed JSON) must not stay reachable through the loop's sleep, or a fleet
 * of servers answering near the cap would hold one such answer each until its next probe.
 */
async function probeOnce(deps, expect, sentAt, budgetMs, signal) {
    const result = await deps.probe(budgetMs, signal);
    return {
        // match-regex runs within what is left of the probe's time, so a runaway pattern cannot pass the deadline
        assessment: assess(result, expect, sentAt + budgetMs - deps.clock.now()),
        timedOut: result.kind === 'error' && result.code === 'TIMEOUT',
        refused: result.kind === 'error' && result.code === 'ECONNREFUSED',
        answered: result.kind === 'http',
        retryAfterMs: result.kind === 'http' ? result.retryAfterMs : undefined
    };
}
/** Sleeps `ms`, or less: until one of `wakers` resolves (its index is returned), or `halt` aborts (-1, as the sleep). */
async function sleepUntilWoken(clock, ms, wakers, halt) {
    const wake = new AbortController();
    const signal = halt ? AbortSignal.any([wake.signal, halt]) : wake.signal;
    const woken = wakers.flatMap((w, i) => (w ? [w(signal).then(() => i)] : []));
    const which = await Promise.race([clock.sleep(ms, signal).then(() => -1), ...woken]);
    wake.abort();
    return which;
}
/** Folds the engine's own readiness answer into the model-list assessment: listed is not ready until it says so. */
function withEngineReadiness(listed, check) {
    const { assessment: h, request } = check;
    if (h.state === 'fatal') {
        // a dead engine core (vLLM's /health 503 after 200), a refused key: waiting cannot help
        const answer = { ...listed.answer, state: 'fatal', engineReadiness: { request, answer: h.answer } };
        if (h.answer.engineDead)
            answer.engineDead = h.answer.engineDead;
        return { ...listed, state: 'fatal', fatalReason: h.fatalReason, answer };
    }
    const state = h.state === 'ready' ? listed.state : 'waiting';
    const answer = { ...listed.answer, state, engineReadiness: { request, answer: h.answer } };
    return { ...listed, state, answer };
}
/** Folds a generation check into the model-list assessment it followed. */
function withGeneration(listed, check) {
    const { assessment: g, request } = check;
    // Listed and ready, so the generation request's answer decides: ready, waiting, or fatal (a refused key).
    const state = g.state === 'ready' || g.state === 'fatal' ? g.state : 'waiting';
    const answer = { ...listed.answer, state, generation: { request, answer: g.answer } };
    const extra = g.state === 'fatal' ? { fatalReason: g.fatalReason } : {};
    const excerpt = g.state === 'ready' ? {} : { excerpt: g.excerpt };
    return { ...listed, ...extra, ...excerpt, state, answer };
}

;// CONCATENATED MODULE: ./src/wait/target-wait.ts
/** One endpoint's wait: its probes, its engine's readiness route, `load`, and its generation check. */











/** One endpoint's wait, its HTTP clients closed however it ends. */
async function waitForTarget(target, shared) {
    const { halter } = shared;
    const { url } = target;
    const endpoint = openEndpoint(target, shared);
    try {
        const outcome = await waitForModel(loopOptions(shared), loopDeps(endpoint, shared));
        // its own end, not a halt's: the fleet may end the others' waits for it
        if (halter.halted === undefined)
            shared.settled?.(url, outcome);
        warnOfPartialMatch(outcome, shared);
        return { ...outcome, url, engine: endpoint.engine.of() };
    }
    finally {
        await Promise.all([
            endpoint.prober.close(),
            endpoint.generator?.close(),
            endpoint.readiness.close(),
            endpoint.loader.close()
        ]);
    }
}
/**
 * The endpoint's clients, all opened at once before the wait, so that the one `finally` of `waitForTarget` closes
 * every one of them, however the wait ends.
 */
function openEndpoint({ url, generation }, shared) {
    const { settings, deps, profile } = shared;
    const { clock } = deps;
    const prefix = shared.prefix ?? '';
    const tls = (0,first_probe/* clientSettings */.ry)(settings, shared.collector);
    // the deadline counts from the wait's start (the action's: its process start); what is left of it bounds the
    // wake-up and the load requests, which may take it all (the weights go back to the GPU meanwhile)
    const waitStart = deps.startedAt ?? clock.now();
    const leftMs = () => waitStart + settings.timeoutMs - clock.now();
    // the first probe, sent for this very target before the gate was loaded, is the wait's first attempt
    const first = shared.firstProbe?.url === url ? shared.firstProbe : undefined;
    const prober = first?.prober ?? (0,probe/* createProber */.X7)({ url, headers: settings.headers, ...tls });
    const firstAnswer = first?.takeAnswer();
    const generator = generation && createGenerator({ ...generation, headers: settings.headers, clock, ...tls });
    // the engine's own readiness answers on the same origin, for an engine that lists its model before it serves
    const readiness = engineReadiness({
        url,
        headers: settings.headers,
        tls,
        clock,
        owner: shared,
        load: settings.load,
        label: (engine) => profile.label ?? engine ?? 'the engine',
        debug: deps.debug && ((line) => deps.debug?.(`${prefix}${line}`)),
        leftMs,
        wokeUp: (label, wakeUrl) => deps.log(`${prefix}${(0,lifecycle_report/* wakeAskedText */.sB)(label, wakeUrl)}`)
    });
    const loader = loadAsker(url, settings.load ? (0,probe/* createHttpClient */.uT)(tls) : undefined, leftMs, shared);
    return { url, prober, firstAnswer, generator, readiness, loader, engine: endpointEngine(shared) };
}
function endpointEngine(shared) {
    const { settings, log, profile } = shared;
    // the engine this endpoint's own model list names
    let listed;
    // llama.cpp's router mode loads other models when asked: its list may change (see SERVES_ONE_MODEL)
    let router = false;
    const of = () => settings.engine ?? listed ?? (log !== undefined ? profile.engine : undefined);
    return {
        of,
        read: (result) => {
            // One look at each answer until its list names the engine (a list that never does is read once a probe)
            if (result.kind === 'http')
                router ||= listsAsRouter(result.json);
            if (result.kind === 'http' && listed === undefined) {
                listed = (0,log_markers/* engineOfModelList */.Pq)(result.json);
                // and the first list to name it names it for the startup phases too, when the log has not
                if (listed !== undefined && profile.engine === undefined) {
                    const lines = profile.models(result.json);
                    if (log !== undefined)
                        shared.sayStartup(lines);
                }
            }
        },
        servesOneModel: () => {
            const engine = of();
            return engine !== undefined && SERVES_ONE_MODEL[engine] && !(engine === 'llamacpp' && router);
        }
    };
}
function loadAsker(url, client, leftMs, shared) {
    const { settings, deps, halter } = shared;
    const prefix = shared.prefix ?? '';
    let loading;
    return {
        ask: (answer) => {
            const request = client && loading === undefined ? loadRequest(url, answer, settings.model) : undefined;
            if (request === undefined || client === undefined)
                return;
            deps.log(`${prefix}${(0,lifecycle_report/* loadAskedText */.g7)(request.url, request.body.model)}`);
            // within what is left of the wait, and cut short by its halt like every request of it
            loading = client
                .send({ url: request.url, method: 'POST', headers: settings.headers, json: request.body }, Math.max(1, leftMs()), halter.signal)
                .then((result) => deps.debug?.(`${prefix}${request.url.pathname}: ${(0,progress/* probeLine */.tL)(result)}`));
        },
        close: () => client?.close()
    };
}
/** The loop's options: the settings' timing and expectation, and `once` for `wait-for-model check`. */
function loopOptions({ settings, deps }) {
    return {
        expect: (0,facts_answer/* expectation */.pG)(settings),
        intervalMs: settings.intervalMs,
        timeoutMs: settings.timeoutMs,
        requestTimeoutMs: settings.requestTimeoutMs,
        successThreshold: settings.successThreshold,
        progressIntervalMs: settings.progressIntervalMs,
        schedule: settings.schedule,
        once: deps.once,
        wrongModelAfterMs: settings.wrongModelAfterMs
    };
}
/** What the loop asks of this endpoint (its probes and checks), and what it is told by the server's log. */
function loopDeps(endpoint, shared) {
    const { settings, deps, halter } = shared;
    const { clock } = deps;
    const { engine, readiness, generator, loader } = endpoint;
    const prefix = shared.prefix ?? '';
    return {
        probe: probeOf(endpoint, shared),
        generate: generator ? generator.generate : undefined,
        engineReady: (modelId, timeoutMs, signal) => readiness.check(engine.of(), modelId ?? settings.model, timeoutMs, signal),
        servesOneModel: engine.servesOneModel,
        loadFailure: (timeoutMs, signal) => readiness.loadFailure(engine.of(), settings.model, timeoutMs, signal),
        deadGeneration: (answer) => readiness.deadAnswer(engine.of(), answer),
        halter,
        portWatch: deps.once ? undefined : shared.ports.watchFor(endpoint.url),
        readyLine: shared.readyLine,
        readyAt: shared.readyAt,
        usualAnsweringMs: shared.usualAnsweringMs,
        logLines: shared.logLines,
        clock,
        startedAt: deps.startedAt,
        onEvent: (e) => {
            loader.ask(e.assessment);
            const startup = e.type === 'progress' ? shared.progressAt(clock.now()) : undefined;
            if (e.type === 'lost')
                deps.warn(`${prefix}${(0,progress/* eventLine */.V8)(e, startup)}`, 'server-lost');
            else
                deps.log(`${prefix}${(0,progress/* eventLine */.V8)(e, startup)}`);
        }
    };
}
/** One probe: the first probe's answer, handed over once, then the prober's own; each told and read for its engine. */
function probeOf(endpoint, shared) {
    const prefix = shared.prefix ?? '';
    return async (timeoutMs, signal) => {
        const answer = endpoint.firstAnswer ?? endpoint.prober.probe(timeoutMs, signal);
        // the first answer must not stay reachable once it has been judged (up to 1 MiB, and its JSON)
        endpoint.firstAnswer = undefined;
        const result = await answer;
        shared.deps.debug?.(`${prefix}${(0,progress/* probeLine */.tL)(result)}`);
        endpoint.engine.read(result);
        return result;
    };
}
/** Ready on a listed id that only contains `model` (`model-match: partial`): said, as it may be another version. */
function warnOfPartialMatch(outcome, { settings, deps, prefix = '' }) {
    const matched = outcome.ready ? outcome.last : undefined;
    if (matched?.modelMatch === 'partial' && settings.model !== undefined && matched.modelId !== undefined)
        deps.warn(`${prefix}${(0,lifecycle_report/* partialMatchText */.MT)(settings.model, matched.modelId)}`, 'model-match');
}

// EXTERNAL MODULE: ./src/wait/fleet-tally.ts
var fleet_tally = __webpack_require__(4750);
;// CONCATENATED MODULE: ./src/wait/servers/none.ts
const nothing = {
    followLog: () => undefined,
    beforeWait: () => undefined,
    whoAnswered: (results) => results,
    afterWait: async () => undefined,
    release: () => undefined
};
const noServer = {
    preflight: async () => undefined,
    launch: () => nothing,
    abandon: () => undefined
};

// EXTERNAL MODULE: ./src/wait/cancelled.ts + 1 modules
var cancelled = __webpack_require__(5165);
;// CONCATENATED MODULE: ./src/wait/sequence.ts
/**
 * The wait of one server's endpoints (or of no server's), from its seam to the outcome: launch, follow, wait,
 * smoke-test, settle. gate.ts runs it once; a fleet of servers (fleet.ts) runs it once per endpoint, each with a
 * server of its own.
 */


















/**
 * The seam for this wait's kind of server. Each kind is a chunk loaded only when a wait needs it: a container, a
 * process to start or follow (or a log to read, see servers/process.ts), else none.
 */
async function serverSeam(settings, deps) {
    if (settings.container !== undefined)
        return (await Promise.all(/* import() */[__webpack_require__.e(898), __webpack_require__.e(910)]).then(__webpack_require__.bind(__webpack_require__, 6910))).containerServer(settings, deps);
    if ((0,first_probe/* usesServerSide */.Vo)(settings))
        return (await __webpack_require__.e(/* import() */ 898).then(__webpack_require__.bind(__webpack_require__, 3898))).processServer(settings, deps);
    return noServer;
}
/** The wait itself, once the seam's pre-flight let it go on. */
async function waitWith(seam, settings, deps) {
    const { clock } = deps;
    (0,undici_parts/* setUpUndici */.St)();
    // Everything that holds a process, a timer or a socket is released in the `finally`, whatever throws first.
    const halter = new runtime_halter/* Halter */.x();
    // one endpoint of a fleet of servers: the fleet may end this wait (enough are ready, or too many failed)
    const member = deps.member;
    member?.stop.signal.addEventListener('abort', () => halter.halt(member.stop.halted), { once: true });
    const ports = new PortPoller();
    let server;
    let watch;
    try {
        server = seam.launch();
        const waitStart = deps.startedAt ?? clock.now();
        const history = openHistory(settings, deps);
        const profile = new StartupProfile({ engine: settings.engine, startedAt: server.startedAt, usual: history.usual });
        const { log, sayStartup, readLines, readyLine, logLines } = followLog({ server, profile, deps, waitStart });
        server.beforeWait();
        deps.log(waiting(settings));
        const { failPattern } = settings;
        watch = watchServer({ halter, server: server.watched, log, failPattern, readLines, cancel: deps.cancel });
        // Every endpoint's sleeps and requests listen to it: a fleet of 200 is not a leak.
        (0,external_node_events_.setMaxListeners)(0, halter.signal);
        deps.debug?.(progress/* gateLines */.HN.requestHeaders(['user-agent', 'accept', ...Object.keys(settings.headers)]));
        const startedAt = server.startedAt ?? waitStart;
        const shared = {
            settings,
            collector: deps.firstProbe?.collector ?? (0,memory/* createBodyCollector */.M)(),
            firstProbe: deps.firstProbe,
            deps,
            halter,
            ports,
            log,
            profile,
            sayStartup,
            progressAt: (now) => (0,profile_report/* startupStatusText */.Zb)(profile.status(now, now - startedAt)),
            readyLine,
            logLines,
            readyAt: (now) => profile.readyAt(now),
            usualAnsweringMs: history.usual?.answeringSeconds && history.usual.answeringSeconds * 1000
        };
        const fleet = endpoints(settings, shared);
        const waited = server.whoAnswered(await Promise.all(settings.targets.map((t, i) => waitForTarget(t, fleet.of(i)))));
        // The lines written up to now end the startup's last phase (a ready line just before the port opened).
        if (log !== undefined)
            readLines(log.poll());
        const last = (0,fleet_tally/* representative */.wz)(waited, fleet.halted, settings.fleetMinReady);
        member?.settled(last);
        const readyAt = readyMoment({ ...(last.ready ? last : {}), readyLineAt: profile.readyLineTime(), now: clock.now() });
        await server.afterWait(last.ready, readyAt);
        // Once the fleet is ready, and only then: a server that is not ready has no throughput to measure. The
        // startup's figures were taken before it, so that its requests count in none of them.
        const smoke = settings.smoke !== undefined && last.ready;
        const results = smoke ? await smokeTest(waited, settings, deps, halter.signal) : waited;
        const outcome = cancelledSince({ ...(0,fleet_tally/* representative */.wz)(results, fleet.halted, settings.fleetMinReady), results }, deps, smoke, waitStart);
        const facts = server.facts;
        const settled = await settle({ settings, outcome, facts, profile, history, deps, readyAt });
        // a cancel while the history's lock was waited for ends the run cancelled too (and it was not recorded)
        return {
            ...cancelledSince(outcome, deps, smoke, waitStart),
            models: [...new Set(results.flatMap((r) => r.models))],
            server: facts,
            profile: settled
        };
    }
    finally {
        watch?.close();
        ports.close();
        server?.release();
    }
}
/**
 * Each endpoint's share of the wait. A fleet's endpoints each have a halter of their own under the wait's: an
 * endpoint that can no longer become ready, or enough ready ones (`fleet-min-ready`), end the others' waits, and
 * `halted` tells an endpoint halted so from one that failed on its own account.
 */
function endpoints(settings, shared) {
    if (settings.targets.length === 1) {
        const first = shared.firstProbe;
        if (first !== undefined)
            shared.halter.signal.addEventListener('abort', first.abort, { once: true });
        return { of: () => shared, halted: () => false };
    }
    const halters = settings.targets.map(() => shared.halter.child());
    const stops = (0,fleet_tally/* fleetStops */.g1)(halters, settings.fleetMinReady);
    const first = shared.firstProbe;
    const own = settings.targets.map((t, i) => ({
        ...shared,
        halter: halters[i],
        prefix: `[${t.url.href}] `,
        settled: (url, outcome) => stops.settled(i, { url, ready: outcome.ready, reason: outcome.reason })
    }));
    // the first probe, in flight for its endpoint, ends with that endpoint's wait
    const firstAt = first === undefined ? -1 : settings.targets.findIndex((t) => t.url === first.url);
    if (first !== undefined && firstAt >= 0)
        halters[firstAt].signal.addEventListener('abort', first.abort, { once: true });
    return { of: (i) => own[i], halted: stops.halted };
}
/**
 * A cancel after the wait had ended (during the smoke test, the GPU reading, the environment report) ends the run
 * cancelled all the same: the smoke test sees it as a request stopped, which must read neither as `smoke-failed`
 * nor as a ready server.
 */
function cancelledSince(outcome, deps, smoke, waitStart) {
    const signal = deps.cancel?.halted;
    if (signal === undefined)
        return outcome;
    return (0,cancelled/* asCancelled */.Ke)(outcome, signal, smoke ? 'smoke-test' : 'after-wait', deps.clock.now() - waitStart);
}
/** The line the wait begins with: what it waits for, how long, and how. */
const waiting = (settings) => (0,progress/* waitingLine */.Sh)({ url: settings.targets[0].url, expect: (0,facts_answer/* expectation */.pG)(settings), timeoutMs: settings.timeoutMs }, {
    endpoints: settings.targets.length,
    generation: settings.probeGeneration,
    intervalMs: settings.intervalMs,
    smoke: settings.smoke
});
/** The smoke test of every endpoint (`smoke-test`), loaded only then: a chunk of its own. */
async function smokeTest(waited, settings, { clock, log }, signal) {
    return (await __webpack_require__.e(/* import() */ 679).then(__webpack_require__.bind(__webpack_require__, 5679))).smokeEndpoints(waited, settings, { clock, signal, log });
}


/***/ })

};

export const id = 679;
export const ids = [679];
export const modules = {

/***/ 5679:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  smokeEndpoints: () => (/* binding */ smokeEndpoints)
});

// EXTERNAL MODULE: ./src/report/smoke-report.ts
var smoke_report = __webpack_require__(1542);
// EXTERNAL MODULE: ./src/runtime/text.ts
var runtime_text = __webpack_require__(5369);
// EXTERNAL MODULE: ./src/http/probe.ts
var probe = __webpack_require__(242);
// EXTERNAL MODULE: ./src/engines/model-lists.ts
var model_lists = __webpack_require__(9778);
;// CONCATENATED MODULE: ./src/engines/streams.ts
/**
 * How to ask each engine for a streamed generation and how to read its stream, as data: the route, the request
 * body (greedy, a fixed prompt, a number of tokens), the framing (SSE `data:` lines or one JSON object a line) and
 * what each event carries. Facts from each engine's source (see the research notes on model servers).
 */

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
/** Greedy decoding of this prompt writes numbers until the token limit: no early end of text. */
const PROMPT = 'Count from 1 to 1000, separated by commas: 1, 2, 3,';
/** `{"error": \u2026}` in any engine's shape, in words; undefined when the event is no error. */
function errorText(event) {
    const e = event.error;
    if (e === undefined || e === null)
        return event.object === 'error' ? String(event.message ?? 'error') : undefined;
    if (typeof e === 'string')
        return e;
    if (isObject(e) && typeof e.message === 'string')
        return e.message;
    return JSON.stringify(e).slice(0, 200);
}
const STREAM_ROUTES = {
    openai: {
        name: 'openai',
        servers: 'vLLM, SGLang, llama.cpp, LocalAI, NIM, LM Studio, TGI and Ollama (/v1)',
        path: '/v1/completions',
        framing: 'sse',
        body: (model, tokens) => ({
            model,
            prompt: PROMPT,
            max_tokens: tokens,
            temperature: 0,
            stream: true,
            // the last event then carries `usage`, the engine's own count
            stream_options: { include_usage: true }
        }),
        // an OpenAI-compatible server that predates `stream_options` may refuse it: its chunks are counted instead
        plainBody: (model, tokens) => ({ model, prompt: PROMPT, max_tokens: tokens, temperature: 0, stream: true }),
        read(event) {
            const error = errorText(event);
            if (error !== undefined)
                return { error };
            const choices = Array.isArray(event.choices) ? event.choices.filter(isObject) : [];
            const text = choices.map((c) => (typeof c.text === 'string' ? c.text : '')).join('');
            const completion = isObject(event.usage) ? count(event.usage.completion_tokens) : undefined;
            return {
                text,
                ...(completion === undefined ? {} : { tokens: { count: completion, source: 'usage.completion_tokens' } })
            };
        }
    },
    // llama.cpp's own route: its last event carries `timings` (predicted_n tokens in predicted_ms)
    llamacpp: {
        name: 'llamacpp',
        servers: 'llama.cpp',
        path: '/completion',
        framing: 'sse',
        // `model` picks the model of a router-mode server; a server of one model ignores it
        body: (model, tokens) => ({
            ...(model === undefined ? {} : { model }),
            prompt: PROMPT,
            n_predict: tokens,
            temperature: 0,
            top_k: 1,
            stream: true,
            cache_prompt: false
        }),
        read(event) {
            const error = errorText(event);
            if (error !== undefined)
                return { error };
            const predicted = isObject(event.timings) ? count(event.timings.predicted_n) : undefined;
            return {
                text: typeof event.content === 'string' ? event.content : '',
                ...(predicted === undefined ? {} : { tokens: { count: predicted, source: 'timings.predicted_n' } }),
                ...(event.stop === true ? { done: true } : {})
            };
        }
    },
    // TGI's `data:` lines have no space after the colon; the last event carries `details` when asked for
    tgi: {
        name: 'tgi',
        servers: 'TGI',
        path: '/generate_stream',
        framing: 'sse',
        body: (_model, tokens) => ({
            inputs: PROMPT,
            parameters: { max_new_tokens: tokens, do_sample: false, details: true }
        }),
        read(event) {
            const error = errorText(event);
            if (error !== undefined)
                return { error };
            const token = isObject(event.token) ? event.token : undefined;
            const generated = isObject(event.details) ? count(event.details.generated_tokens) : undefined;
            return {
                text: token !== undefined && token.special !== true && typeof token.text === 'string' ? token.text : '',
                ...(generated === undefined ? {} : { tokens: { count: generated, source: 'details.generated_tokens' } }),
                ...(typeof event.generated_text === 'string' ? { done: true } : {})
            };
        }
    },
    // Ollama streams by default: one JSON object a line, the last with `done: true` and `eval_count`
    ollama: {
        name: 'ollama',
        servers: 'Ollama',
        path: '/api/generate',
        framing: 'ndjson',
        body: (model, tokens) => ({
            model,
            prompt: PROMPT,
            stream: true,
            options: { num_predict: tokens, temperature: 0, top_k: 1 }
        }),
        read(event) {
            const error = errorText(event);
            if (error !== undefined)
                return { error };
            const evals = event.done === true ? count(event.eval_count) : undefined;
            return {
                text: typeof event.response === 'string' ? event.response : '',
                ...(evals === undefined ? {} : { tokens: { count: evals, source: 'eval_count' } }),
                ...(event.done === true ? { done: true } : {})
            };
        }
    }
};
/** An engine the log or the `engine` input names, without a model-list URL that tells the route. */
/** One entry per engine (the compiler holds the table to ENGINE_NAMES); undefined: it generates no text (Triton). */
const ENGINE_STREAMS = {
    vllm: 'openai',
    sglang: 'openai',
    tgi: 'tgi',
    ollama: 'ollama',
    llamacpp: 'llamacpp',
    triton: undefined,
    // NIM for LLMs and LocalAI serve OpenAI's routes; KServe's protocols (v1 predict, v2 infer) generate no text
    nim: 'openai',
    localai: 'openai',
    kserve: undefined
};
/**
 * The streamed generation for an endpoint: by its model-list path (the part before it is the server's base, a
 * proxy prefix kept), else by the engine at the URL's origin; llama.cpp, once known, by its own `/completion`.
 * `none`: why no text generation is known there (Triton, TorchServe, KServe, an unknown path and engine).
 */
function streamRoute(url, engine) {
    const found = (0,model_lists/* generationRoute */.wf)(url);
    if (found !== undefined) {
        const name = found.route.name === 'openai' && engine === 'llamacpp' ? 'llamacpp' : found.route.name;
        return { route: STREAM_ROUTES[name], base: found.base };
    }
    const name = engine === undefined ? undefined : ENGINE_STREAMS[engine];
    if (name !== undefined)
        return { route: STREAM_ROUTES[name], base: url.origin };
    return engine === undefined ? { none: 'unknown-route' } : { none: 'no-text-generation', engine };
}

// EXTERNAL MODULE: ./src/history/stats.ts
var stats = __webpack_require__(2899);
// EXTERNAL MODULE: ./src/smoke/frames.ts
var smoke_frames = __webpack_require__(8855);
;// CONCATENATED MODULE: ./src/smoke/measure.ts
/**
 * The throughput smoke test: once the server is ready, a few streamed generation requests one after another, each
 * timed from the request to its first token (TTFT) and from its first token to its last (the decode rate). Tokens
 * are counted by the engine's own figure where its stream gives one, else as the chunks that carried text.
 */





/** Runs the smoke test against one endpoint, within `settings.timeoutMs` in all; `signal` ends it at once. */
async function smokeTest(target, settings, deps) {
    const found = streamRoute(target.url, target.engine);
    if ('none' in found)
        return {
            requests: settings.requests,
            measurements: [],
            problem: { kind: 'no-route', why: found.none, engine: found.engine, path: target.url.pathname }
        };
    const { route, base } = found;
    const client = (0,probe/* createHttpClient */.uT)({ caCert: target.caCert, insecureTls: target.insecureTls, secrets: target.secrets });
    const deadline = deps.clock.now() + settings.timeoutMs;
    const measurements = [];
    let problem;
    let body = route.body;
    try {
        for (let i = 0; i < settings.requests && problem === undefined; i++) {
            const left = deadline - deps.clock.now();
            const one = left <= 0
                ? { problem: { kind: 'timeout', timeoutMs: settings.timeoutMs } }
                : await measureOne(client, route, body, base, target, settings, left, deps);
            const refused = 'problem' in one && one.problem.kind === 'http' && [400, 422].includes(one.problem.status);
            if (refused && route.plainBody !== undefined && body !== route.plainBody) {
                // asked again, the same request without the fields the server may not know
                body = route.plainBody;
                i--;
                continue;
            }
            if ('problem' in one) {
                problem = one.problem.kind === 'timeout' ? { kind: 'timeout', timeoutMs: settings.timeoutMs } : one.problem;
            }
            else {
                measurements.push(one);
                deps.measured?.(i, one);
            }
        }
    }
    finally {
        await client.close();
    }
    const rates = measurements.flatMap((m) => (m.decodeTokensPerSecond === undefined ? [] : [m.decodeTokensPerSecond]));
    if (problem === undefined && rates.length === 0)
        problem = { kind: 'not-streamed' };
    return {
        request: `POST ${route.path}`,
        requests: settings.requests,
        measurements,
        ...(measurements.length === 0 ? {} : { ttftMs: (0,stats/* median */.JZ)(measurements.map((m) => m.ttftMs)) }),
        ...(rates.length === 0 ? {} : { decodeTokensPerSecond: (0,stats/* median */.JZ)(rates) }),
        ...(measurements.length === 0 ? {} : { source: measurements[measurements.length - 1].source }),
        ...(problem === undefined ? {} : { problem })
    };
}
/** One streamed request, read as it arrives, bounded by `timeoutMs`, the frame reader's caps and `signal`. */
async function measureOne(client, route, body, base, target, settings, timeoutMs, deps) {
    const { clock } = deps;
    const frames = new smoke_frames/* FrameReader */.tS(route.framing);
    let firstAt;
    let lastAt = 0;
    let chunks = 0;
    let counted;
    let problem;
    /** Reads the frames; false once the stream has said all it will (its end, an error, a frame too long). */
    const take = (list, at) => {
        for (const frame of list) {
            if (frame.kind === 'done')
                return false;
            if (frame.kind === 'too-long') {
                problem = { kind: 'too-long', what: frame.what };
                return false;
            }
            const event = route.read(frame.json);
            if (event.error !== undefined) {
                // the server's words on one line, as an HTTP error's are: a stream's line may be 64 KiB
                problem = { kind: 'stream-error', said: (0,runtime_text/* clip */.$Q)(event.error, 300) };
                return false;
            }
            if (event.text !== undefined && event.text !== '') {
                firstAt ??= at;
                lastAt = at;
                chunks++;
            }
            if (event.tokens !== undefined)
                counted = event.tokens;
            if (event.done)
                return false;
        }
        return true;
    };
    const sentAt = clock.now();
    const result = await client.send({
        url: new URL(`${base}${route.path}`),
        method: 'POST',
        headers: { accept: 'text/event-stream, application/x-ndjson, application/json', ...target.headers },
        json: body(target.model, settings.tokens),
        stream: (chunk) => take(frames.push(chunk), clock.now())
    }, timeoutMs, deps.signal);
    if (result.kind === 'error')
        return {
            problem: result.code === 'TIMEOUT'
                ? { kind: 'timeout', timeoutMs }
                : result.code === 'STOPPED'
                    ? { kind: 'stopped' }
                    : { kind: 'network', code: result.code, message: result.message }
        };
    if (result.status < 200 || result.status > 299) {
        const said = (0,runtime_text/* describeBody */.MP)(result.body, result.contentType, result.json);
        return { problem: { kind: 'http', status: result.status, ...(said === '' ? {} : { said }) } };
    }
    if (problem === undefined)
        take(frames.end(), clock.now());
    if (problem !== undefined)
        return { problem };
    if (firstAt === undefined)
        return { problem: { kind: 'no-tokens' } };
    const { tokens, source } = plausibleTokens(counted, chunks, settings.tokens);
    const decodeMs = lastAt - firstAt;
    return {
        ttftMs: firstAt - sentAt,
        tokens,
        source,
        // under a millisecond between the first and the last text is no time to divide by: every token came at once
        ...(tokens >= 2 && decodeMs >= MIN_DECODE_MS ? { decodeTokensPerSecond: ((tokens - 1) * 1000) / decodeMs } : {})
    };
}
/**
 * A server may count a token or two more than asked for (an end-of-sequence token, a stop string), no more: an
 * engine's count above the tokens asked for + TOKEN_MARGIN, below the chunks that carried text, or not a whole number
 * (1e308, 2^53) is not believed, and the chunks are counted instead.
 */
const TOKEN_MARGIN = 8;
/** The clock's smallest span a decode rate is divided by. */
const MIN_DECODE_MS = 1;
function plausibleTokens(counted, chunks, requested) {
    const most = requested + TOKEN_MARGIN;
    if (counted !== undefined && Number.isSafeInteger(counted.count) && counted.count >= chunks && counted.count <= most)
        return { tokens: counted.count, source: counted.source };
    // each chunk carried at least one token, and the server was asked for `requested`: more are not counted
    return { tokens: Math.min(chunks, most), source: 'chunks' };
}

;// CONCATENATED MODULE: ./src/wait/smoke-endpoints.ts



/**
 * Each ready endpoint with its smoke test. A fleet's endpoints are measured at the same time (each its own
 * server), every one within its fixed limit and the wait's `timeout`; `signal` (the wait's halter: a cancelled
 * job, the server gone) ends them.
 */
async function smokeEndpoints(results, settings, deps) {
    const smoke = settings.smoke;
    if (smoke === undefined)
        return [...results];
    return Promise.all(results.map(async (r) => {
        if (!r.ready)
            return r;
        const prefix = results.length > 1 ? `[${r.url.href}] ` : '';
        const found = streamRoute(r.url, r.engine);
        const request = 'route' in found ? `POST ${found.route.path}` : undefined;
        deps.log(`${prefix}${smoke_report/* smokeLines */.zv.start(smoke.requests, smoke.tokens, request)}`);
        const result = await smokeTest({
            url: r.url,
            engine: r.engine,
            // the listed id the wait matched: the `model` input may be a part of it
            model: r.last?.modelId ?? settings.model ?? r.models[0],
            headers: settings.headers,
            caCert: settings.caCert,
            insecureTls: settings.insecureTls,
            secrets: settings.secrets
        }, 
        // the time the wait has left (its elapsed time counts from the same start as its timeout)
        { ...smoke, timeoutMs: Math.max(1, Math.min(smoke.timeoutMs, settings.timeoutMs - r.elapsedMs)) }, {
            clock: deps.clock,
            signal: deps.signal,
            measured: (i, m) => deps.log(`${prefix}${smoke_report/* smokeLines */.zv.measured(i, smoke.requests, m)}`)
        });
        const line = smoke_report/* smokeLines */.zv.result(result);
        if (line !== undefined)
            deps.log(`${prefix}${line}`);
        return { ...r, smoke: result };
    }));
}


/***/ })

};

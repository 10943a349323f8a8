/**
 * The engines whose start-up log the gate reads: the names the `engine` input accepts. Apart from their lines
 * (log-markers.ts, which has one table per engine named here, in this order), so that reading the inputs does
 * not load those tables before the first probe.
 */
export const LOG_ENGINE_NAMES = ['vllm', 'sglang', 'tgi', 'ollama', 'llamacpp', 'triton'] as const

export type LogEngine = (typeof LOG_ENGINE_NAMES)[number]

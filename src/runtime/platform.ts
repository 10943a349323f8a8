/** What this machine can do, where a feature depends on it: inputs are checked against it before anything runs. */
import { existsSync } from 'node:fs'

export interface Platform {
  os: NodeJS.Platform
  /** /proc is there (Linux), where another process's start time and environment are read. */
  hasProc: boolean
}

export function currentPlatform(): Platform {
  return { os: process.platform, hasProc: existsSync('/proc/self/stat') }
}

const OS_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' }

export const osName = (platform: Platform): string => OS_NAMES[platform.os] ?? platform.os

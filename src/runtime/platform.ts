/**
 * What the machine the gate runs on can do, where a feature depends on it. Inputs are checked against it, so
 * that a feature this runner cannot serve fails before anything runs, naming the input, rather than during the
 * wait. Tests pass a fake one for macOS and Windows.
 */
import { existsSync } from 'node:fs'

export interface Platform {
  /** As `process.platform` names it: linux, darwin, win32, … */
  os: NodeJS.Platform
  /** /proc is there (Linux), where another process's start time and environment are read. */
  hasProc: boolean
}

/** The machine this process runs on. */
export function currentPlatform(): Platform {
  return { os: process.platform, hasProc: existsSync('/proc/self/stat') }
}

const OS_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' }

/** For messages: "macOS", "Windows", else the platform's own name. */
export const osName = (platform: Platform): string => OS_NAMES[platform.os] ?? platform.os

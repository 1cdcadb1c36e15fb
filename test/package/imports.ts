import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root: paths below are relative to it. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** Every `.ts` file under `dir` (relative to the root). */
export function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return filesUnder(path)
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : []
  })
}

/** The files a file imports (static, type-only, re-exports and dynamic `import()`), as paths from the root; packages left out. */
export function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!)
  return specifiers.filter((s) => s.startsWith('.')).map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).replace(/\.js$/, '.ts'))
}

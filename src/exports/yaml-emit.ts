/**
 * A YAML emitter for the dataset cards' headers: plain objects, arrays, strings, numbers and
 * booleans, in block style with two-space indents. Strings are written as JSON strings, which are
 * YAML double-quoted scalars. (The `yaml` package cost ~60 ms to load on every build.)
 */
export function toYaml(value: unknown): string {
  return lines(value, 0).join('\n') + '\n'
}

type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain }

const scalar = (v: unknown): string => {
  if (v === null || v === undefined) return 'null'
  if (typeof v === 'string') return /^[A-Za-z_][\w./<>-]*$/.test(v) && !/^(true|false|null|yes|no|on|off|~)$/i.test(v) ? v : JSON.stringify(v)
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  throw new Error(`toYaml: cannot write ${typeof v}`)
}

const isBlock = (v: unknown) => v !== null && typeof v === 'object' && (Array.isArray(v) ? v.length > 0 : Object.keys(v as object).length > 0)

function lines(value: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent)
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (!isBlock(item)) return [`${pad}- ${scalar(item)}`]
      const inner = lines(item, indent + 2)
      return [`${pad}- ${inner[0]!.trimStart()}`, ...inner.slice(1)]
    })
  }
  return Object.entries(value as Record<string, Plain>).flatMap(([key, v]) => {
    if (!isBlock(v)) return [`${pad}${key}: ${Array.isArray(v) ? '[]' : typeof v === 'object' && v !== null ? '{}' : scalar(v)}`]
    return [`${pad}${key}:`, ...lines(v, indent + 2)]
  })
}

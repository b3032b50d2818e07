import pkg from '../../package.json' with { type: 'json' }

/** The toolkit's name and version, as package.json gives them. */
export const TOOL = { name: pkg.name, version: pkg.version }

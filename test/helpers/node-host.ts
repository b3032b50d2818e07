// Vitest setup file, run in every test worker before its tests: the library's Node edges, as the
// CLI and the package entry install them (tests import the stages' modules directly).
import { installNodeHost } from '../../src/io/node-host.js'

installNodeHost()

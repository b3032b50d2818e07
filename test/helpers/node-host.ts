// Vitest setup file, run before every test file: the library's Node edges, as the CLI and the
// package entry install them (tests import the stages' modules directly), with the default settings
// (the test files of a worker share its modules: a file that changed a setting leaves it to the next).
import { installNodeHost } from '../../src/io/node-host.js'
import { DEFAULT_IO_SETTINGS } from '../../src/io/settings.js'

installNodeHost({ ...DEFAULT_IO_SETTINGS })

// The demo data lives in the library (the CLI serves it); the examples use it from there.
export { createDemoState, seedDemo, type DemoData } from '../src/demo.js'

export * from '../../sdks/typescript/src/tls.js'

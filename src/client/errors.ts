export { ConnectionError, type ConnectionErrorCode } from '../../sdks/typescript/src/errors.js'

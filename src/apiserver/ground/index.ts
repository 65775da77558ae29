// The API server's ground floor: the vocabulary every other room of the server speaks and that
// imports nothing of the server above it (only meta). Rooms import it through this face.
export { isBase64, isDate, isDateTime, isUuid, numberMatchesFormat, stringMatchesFormat } from './formats.js';

// A score as its board's format reads it (`{kind: 'milliseconds'}`: 1234 -> "0:01.234"): the
// contract's formatScore, typed with the client's own types.
import { formatScore as contractFormat } from '../../contract/board-options';
import type { BoardScoreFormat } from './types';

export const formatScore: (value: number, format: BoardScoreFormat) => string = contractFormat;

import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';

/** One way to compress a page, as the sweep tries it. */
export type EncoderSetting =
  | { readonly kind: 'br'; readonly quality: number; readonly lgwin: number; readonly sizeHint?: number }
  | { readonly kind: 'gzip'; readonly level: number; readonly memLevel: number; readonly windowBits: number };

export function settingName(setting: EncoderSetting): string {
  return setting.kind === 'br'
    ? `br quality ${setting.quality}, lgwin ${setting.lgwin}${setting.sizeHint === undefined ? '' : `, size hint ${setting.sizeHint / 1024} KiB`}`
    : `gzip level ${setting.level}, memLevel ${setting.memLevel}, windowBits ${setting.windowBits}`;
}

export function createEncoder(setting: EncoderSetting): BrotliCompress | Gzip {
  if (setting.kind === 'gzip') return createGzip({ level: setting.level, memLevel: setting.memLevel, windowBits: setting.windowBits });
  return createBrotliCompress({
    params: {
      [constants.BROTLI_PARAM_QUALITY]: setting.quality,
      [constants.BROTLI_PARAM_LGWIN]: setting.lgwin,
      ...(setting.sizeHint === undefined ? {} : { [constants.BROTLI_PARAM_SIZE_HINT]: setting.sizeHint }),
    },
  });
}

export function isEncoderSetting(value: unknown): value is EncoderSetting {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return false;
  if (value.kind === 'br') return 'quality' in value && typeof value.quality === 'number' && 'lgwin' in value && typeof value.lgwin === 'number';
  return value.kind === 'gzip' && 'level' in value && typeof value.level === 'number' && 'memLevel' in value && 'windowBits' in value;
}

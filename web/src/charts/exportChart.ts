// Charts as files: the chart's <svg> serialized with its computed styles inlined (so it looks
// the same outside the page), and the same SVG drawn onto a canvas for PNG.

const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'shape-rendering',
  'visibility',
  'display',
] as const;

/** Elements marked with this class (hover read-outs, focus rings) are left out of exports. */
export const NO_EXPORT = 'no-export';

/** The background a chart is drawn on (dark in the dark scheme), for its exported file. */
export function chartBackground(svg: SVGSVGElement): string {
  const bg = getComputedStyle(svg.closest('.chart') ?? document.body).backgroundColor;
  return bg && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent' ? bg : '#ffffff';
}

/** The SVG document text of `svg`, with computed styles inlined and the chart's background. */
export function serializeSvg(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const src = [svg, ...svg.querySelectorAll('*')];
  const dst = [clone, ...clone.querySelectorAll('*')];
  for (let i = 0; i < src.length; i++) {
    const s = getComputedStyle(src[i]);
    const d = dst[i] as SVGElement;
    const parts: string[] = [];
    for (const p of STYLE_PROPS) {
      const v = s.getPropertyValue(p);
      if (v) parts.push(`${p}:${v}`);
    }
    d.setAttribute('style', parts.join(';'));
  }
  for (const el of clone.querySelectorAll(`.${NO_EXPORT}`)) el.remove();
  const { width, height } = svg.getBoundingClientRect();
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(Math.round(width)));
  clone.setAttribute('height', String(Math.round(height)));
  if (!clone.getAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${Math.round(width)} ${Math.round(height)}`);
  const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', chartBackground(svg));
  clone.insertBefore(bg, clone.firstChild);
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone);
}

function download(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** File-name-safe version of a chart or scenario name. */
export function fileBase(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'chart';
}

export function downloadSvg(svg: SVGSVGElement, name: string) {
  download(`${fileBase(name)}.svg`, new Blob([serializeSvg(svg)], { type: 'image/svg+xml' }));
}

/** A canvas no larger than browsers draw: Chromium's side limit, and an area (4096²) that
 * mobile browsers also allow; beyond them `toBlob` gives nothing. */
const MAX_CANVAS_SIDE = 32_767;
const MAX_CANVAS_AREA = 16_777_216;

/** The PNG's scale: `wanted`, or less where the canvas would exceed what browsers allow. The
 * INTCP hop view of a long constellation run is 35 000 px wide: at 2× it drew nothing. */
export function pngScale(width: number, height: number, wanted: number): number {
  if (width <= 0 || height <= 0) return wanted;
  return Math.min(wanted, MAX_CANVAS_SIDE / width, MAX_CANVAS_SIDE / height, Math.sqrt(MAX_CANVAS_AREA / (width * height)));
}

/** Draws the serialized SVG onto a canvas at `scale` times its size (less for a drawing too large
 * for a canvas: `pngScale`) and resolves to a PNG blob. */
export function svgToPng(svg: SVGSVGElement, wantedScale = 2): Promise<Blob> {
  const text = serializeSvg(svg);
  const { width, height } = svg.getBoundingClientRect();
  const scale = pngScale(width, height, wantedScale);
  const background = chartBackground(svg);
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  return new Promise<Blob>((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(width * scale));
      canvas.height = Math.max(1, Math.round(height * scale));
      const ctx = canvas.getContext('2d');
      if (!ctx) {
        URL.revokeObjectURL(url);
        reject(new Error('no 2D canvas'));
        return;
      }
      ctx.fillStyle = background;
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(url);
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the canvas gave no PNG'))), 'image/png');
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('the SVG could not be drawn'));
    };
    img.src = url;
  });
}

export async function downloadPng(svg: SVGSVGElement, name: string, scale = 2) {
  download(`${fileBase(name)}.png`, await svgToPng(svg, scale));
}

import QRCode from "qrcode";

const QUIET = 4; // the quiet zone the QR standard asks for, in modules

/** A QR code drawn on the server as one SVG path (no script, no image request). */
export function QrCode({ value, label, size = 176 }: { value: string; label: string; size?: number }) {
  const { modules } = QRCode.create(value, { errorCorrectionLevel: "M" });
  let d = "";
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) if (modules.get(row, col)) d += `M${col + QUIET} ${row + QUIET}h1v1h-1z`;
  }
  const span = modules.size + QUIET * 2;
  return (
    <svg
      viewBox={`0 0 ${span} ${span}`}
      width={size}
      height={size}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      className="rounded bg-white ring-1 ring-slate-200"
      data-testid="deposit-address-qr"
    >
      <rect width={span} height={span} fill="#fff" />
      <path d={d} fill="#0f172a" />
    </svg>
  );
}

import type { SVGProps } from "react";

/** Icons only the dashboard uses, drawn like those in icons.tsx (24px grid, stroked, decorative). */
function DashboardIcon({ className = "h-6 w-6", children }: { className?: string; children: SVGProps<SVGSVGElement>["children"] }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export function HomeIcon({ className }: { className?: string }) {
  return (
    <DashboardIcon className={className}>
      <path d="M3.5 11L12 4l8.5 7" />
      <path d="M6 9.5V20h12V9.5M10 20v-5h4v5" />
    </DashboardIcon>
  );
}

export function BookmarkIcon({ className, filled = false }: { className?: string; filled?: boolean }) {
  return (
    <DashboardIcon className={className}>
      <path d="M6.5 4h11v16.5L12 16.5l-5.5 4z" fill={filled ? "currentColor" : "none"} />
    </DashboardIcon>
  );
}

export function HeartIcon({ className, filled = false }: { className?: string; filled?: boolean }) {
  return (
    <DashboardIcon className={className}>
      <path d="M12 19.5s-7.5-4.4-7.5-10A4.2 4.2 0 0112 7a4.2 4.2 0 017.5 2.5c0 5.6-7.5 10-7.5 10z" fill={filled ? "currentColor" : "none"} />
    </DashboardIcon>
  );
}

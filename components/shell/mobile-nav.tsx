"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { usePathname } from "next/navigation";

/**
 * Below 768 px: a top bar with a menu button that opens the navigation as a drawer.
 * A modal <dialog> gives the drawer what a keyboard user needs for free: focus moves
 * into it, stays there, Escape closes it, and focus goes back to the menu button.
 */
export function MobileNav({ brand, actions, children }: { brand: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const pathname = usePathname();

  // Following a link closes the drawer.
  useEffect(() => {
    dialog.current?.close();
  }, [pathname]);

  const show = () => {
    dialog.current?.showModal();
    // Start on the current page's link (or the first one), not on the logo.
    dialog.current?.querySelector<HTMLElement>('nav a[aria-current="page"], nav a')?.focus();
    setOpen(true);
  };

  return (
    <header className="sticky top-0 z-30 flex items-center justify-between border-b border-slate-200 bg-white px-4 py-2 md:hidden">
      {brand}
      <div className="flex items-center gap-2">
        {actions}
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls="main-menu"
          onClick={show}
          className="inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
            <path d="M3 5h14v2H3zM3 9h14v2H3zM3 13h14v2H3z" />
          </svg>
          Menu
        </button>
      </div>
      <dialog
        ref={dialog}
        id="main-menu"
        aria-label="Menu"
        onClose={() => {
          setOpen(false);
          button.current?.focus();
        }}
        // A click on the backdrop lands on the dialog element itself.
        onClick={(event) => {
          if (event.target === dialog.current) dialog.current?.close();
        }}
        className="fixed inset-y-0 left-0 m-0 h-full max-h-none w-72 max-w-[85vw] bg-white p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="flex min-h-full flex-col">
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2">
            {brand}
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
            >
              Close<span className="sr-only"> menu</span>
            </button>
          </div>
          <div className="flex flex-1 flex-col pt-3">{children}</div>
        </div>
      </dialog>
    </header>
  );
}

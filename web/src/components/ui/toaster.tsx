import { useEffect } from 'react';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';
import { trackPressedControls } from './toast-placement';
import { DEFAULT_TOAST_DURATION_MS, dismissToast, useToasts } from './use-toast';

/**
 * Renders the toast on screen (at most one, see use-toast.ts). Mounted once at the root. It shows where it covers
 * neither the control just pressed nor a primary action (./toast-placement.ts).
 */
export function Toaster() {
  const toasts = useToasts();
  useEffect(trackPressedControls, []);
  const placement = toasts.find((t) => t.open)?.placement ?? 'top';
  return (
    <ToastProvider duration={DEFAULT_TOAST_DURATION_MS}>
      {toasts.map(({ id, title, description, variant, duration, open }) => (
        <Toast
          key={id}
          variant={variant}
          duration={duration ?? DEFAULT_TOAST_DURATION_MS}
          open={open}
          onOpenChange={(isOpen) => {
            if (!isOpen) dismissToast(id);
          }}
        >
          <div className="grid gap-1">
            <ToastTitle>{title}</ToastTitle>
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport placement={placement} />
    </ToastProvider>
  );
}

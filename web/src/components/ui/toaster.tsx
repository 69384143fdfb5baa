import { DEFAULT_TOAST_DURATION_MS, dismissToast, useToasts } from './use-toast';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';

/** Renders the toast on screen (at most one, see use-toast.ts). Mounted once at the root. */
export function Toaster() {
  const toasts = useToasts();
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
      <ToastViewport />
    </ToastProvider>
  );
}

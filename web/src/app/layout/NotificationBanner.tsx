// The notification banner (spec §2): top of the screen below the header (it never covers the header's
// controls), closable, colour by type.
import { NOTICE_FADE_MS } from '@folio/shared';
import { focusRing } from '../../components/ui/styles.js';
import { dismissNotification, notificationStore, type NotificationType } from '../../lib/notifications.js';
import { useStore } from '../../lib/store.js';

const STYLE: Record<NotificationType, string> = {
  error: 'bg-red-600 text-white',
  warning: 'bg-amber-500 text-slate-950',
  // 700 shades: white text on them reaches 4.5:1 (600 did not).
  success: 'bg-green-700 text-white',
  info: 'bg-sky-700 text-white',
};

export function NotificationBanner() {
  const notice = useStore(notificationStore, (n) => n);
  if (!notice) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 top-16 z-[60] flex justify-center px-4 pt-3">
      <div
        role={notice.type === 'error' ? 'alert' : 'status'}
        data-type={notice.type}
        data-testid="notification"
        style={{ transitionDuration: `${NOTICE_FADE_MS}ms` }}
        className={`pointer-events-auto flex w-full max-w-xl items-start gap-3 rounded-xl px-4 py-3 shadow-lg transition-opacity motion-reduce:transition-none ${STYLE[notice.type]} ${notice.isVisible ? 'opacity-100' : 'opacity-0'}`}
      >
        <p className="flex-1 text-sm font-medium">{notice.message}</p>
        <button
          type="button"
          aria-label="Close notification"
          onClick={() => dismissNotification(notice.id)}
          className={`-m-1 rounded p-1 leading-none hover:bg-black/10 ${focusRing}`}
        >
          ×
        </button>
      </div>
    </div>
  );
}

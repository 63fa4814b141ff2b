import { callCommand, resolveAttachments, ValidationError, type Principal, type ServiceClient } from '@bop/shared';

/** The files service's internal commands as employee documents and certifications use them. */
export interface FilesLink {
  /**
   * The attachment a record names, checked as the caller would see it: 422 on `path` when it does not
   * exist or the caller may not see it (one answer for both: nothing leaks), or when it concerns another
   * employee. Answers its file name; null when files cannot be asked here (people run alone).
   */
  check(attachmentId: string, employeeId: string, caller: Principal, path: string): Promise<{ fileName: string } | null>;
  /** Sets or clears the employee the file concerns (they may read it while set). */
  concern(attachmentId: string, employeeId: string | null): Promise<void>;
}

export function filesLink(services: ServiceClient, requestId?: string): FilesLink {
  const configured = services.has('files');
  return {
    async check(attachmentId, employeeId, caller, path) {
      const found = await resolveAttachments(services, [attachmentId], caller, requestId);
      if (!found) return null;
      const att = found.get(attachmentId);
      if (!att || !att.visibleToViewer) throw new ValidationError([{ path, message: `No attachment ${attachmentId}.` }]);
      if (att.employeeId && att.employeeId !== employeeId) throw new ValidationError([{ path, message: `Attachment ${attachmentId} concerns another employee.` }]);
      return { fileName: att.fileName };
    },
    async concern(attachmentId, employeeId) {
      if (!configured) return;
      await callCommand(services, 'files', 'POST', `/internal/attachments/${encodeURIComponent(attachmentId)}:concern`, { employeeId }, { what: 'share the file with the employee', ok: [200], requestId });
    },
  };
}

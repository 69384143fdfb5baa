import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Accuracy, ProfessionalGradeHistory } from '@contracts/professional-grades';
import type { GradingCompany } from '@contracts/grading';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiUpload, getQueryFn } from '@/lib/api-client';
import { gradeHistoryUrl } from '@/features/cards/api';

const historyUrl = (cardId: string) => `/api/card/${encodeURIComponent(cardId)}/professional-grade`;

/**
 * GET /api/card/{id}/professional-grade: the owner's reports. Anyone else (a shared link) gets the server's 404 or
 * 401, read here as null: the section is then not shown.
 */
export function professionalGradeQueryOptions(cardId: string) {
  return queryOptions({
    queryKey: [historyUrl(cardId)],
    queryFn: getQueryFn<ProfessionalGradeHistory>({ on401: 'returnNull', on404: 'returnNull' }),
  });
}

export interface ProfessionalGradeSubmission {
  company: GradingCompany;
  grade: string;
  cert: string;
  slabPhoto: File | null;
}

/** POST /api/card/{id}/professional-grade; the answer is the card's reports, put straight into the cache. */
export function useReportProfessionalGradeMutation(cardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ company, grade, cert, slabPhoto }: ProfessionalGradeSubmission) => {
      const form = new FormData();
      form.append('company', company);
      form.append('grade', grade);
      form.append('cert', cert);
      if (slabPhoto) form.append('slabPhoto', slabPhoto);
      return (await (await apiUpload(historyUrl(cardId), form)).json()) as ProfessionalGradeHistory;
    },
    onSuccess: async (history) => {
      queryClient.setQueryData([historyUrl(cardId)], history);
      // The card's grade history lists the reports too.
      await queryClient.invalidateQueries({ queryKey: [gradeHistoryUrl(cardId)] });
      // The owner's own figures and the public ones move with the report.
      await queryClient.invalidateQueries({ queryKey: ['/api/accuracy'] });
      await queryClient.invalidateQueries({ queryKey: ['/api/accuracy/mine'] });
      const current = history.current;
      toast({
        title: 'Professional grade recorded',
        description: current ? `${current.company} ${current.grade}${current.verified ? ', verified by the slab label' : ''}` : undefined,
      });
    },
    onError: (error) => {
      toast({
        title: 'Report not recorded',
        description: (error instanceof ApiError ? error.serverMessage : undefined) ?? 'Please try again.',
        variant: 'destructive',
      });
    },
  });
}

/** GET /api/accuracy: public. */
export const accuracyQueryOptions = queryOptions({
  queryKey: ['/api/accuracy'],
  queryFn: getQueryFn<Accuracy>({ on401: 'throw' }),
});

/** GET /api/accuracy/mine: null when signed out. */
export const myAccuracyQueryOptions = queryOptions({
  queryKey: ['/api/accuracy/mine'],
  queryFn: getQueryFn<Accuracy>({ on401: 'returnNull' }),
});

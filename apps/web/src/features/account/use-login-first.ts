import { useNavigate } from 'react-router';
import { MSG } from '@guji/shared';
import { toast } from '../../components/toast.ts';
import { useDelayedAction } from '../../components/use-delayed-action.ts';
import { useSession } from './queries.ts';

/**
 * For actions that need a signed-in reader (collecting a book, searching the text of books): returns a
 * check that answers true when signed in, and otherwise shows «已有账号请登录，否则请注册» and goes to
 * /Login after 1.5 s (DESIGN.md §7), answering false.
 */
export function useLoginFirst(): { signedIn: boolean; loginFirst: () => boolean } {
  const signedIn = Boolean(useSession().data?.user);
  const navigate = useNavigate();
  const later = useDelayedAction();
  return {
    signedIn,
    loginFirst: () => {
      if (signedIn) return true;
      toast.warning(MSG.loginRequiredNotice);
      later(() => void navigate('/Login'), 1500);
      return false;
    },
  };
}
